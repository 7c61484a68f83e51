import { z } from 'zod';
import { email } from './fields.ts';

export const emailTemplateNames = ['activation'] as const;

/**
 * The spec's body also carries `subject` and `variables{username, resetUrl}`; they are dropped
 * like any unknown property: the server takes the name from the account, makes the link under
 * PUBLIC_URL and the subject from the template (docs/decisions/mail.md § E-mail).
 */
export const sendEmailRequest = z.object({
  to: email,
  templateName: z.enum(emailTemplateNames, { error: 'Template is not valid' }),
});
export type SendEmailRequest = z.infer<typeof sendEmailRequest>;

export const noActiveDoctorAtAddress = 'No active doctor is registered with this e-mail address';
