import { z } from 'zod';
import { email, requiredText } from './fields.ts';

export const emailTemplateNames = ['activation'] as const;

export const sendEmailRequest = z.object({
  to: email,
  subject: requiredText('Subject', 200),
  templateName: z.enum(emailTemplateNames, { error: 'Template is not valid' }),
  variables: z.object({
    username: requiredText('Username', 100),
    resetUrl: z.url({ error: 'Reset URL is not valid', protocol: /^https?$/ }).max(2000),
  }),
});
export type SendEmailRequest = z.infer<typeof sendEmailRequest>;
