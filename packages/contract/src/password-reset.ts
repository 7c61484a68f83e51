import { z } from 'zod';
import { password, passwordsMatchMessage, requiredMessage } from './fields.ts';

export const resetPasswordRequest = z.object({
  token: z.string({ error: 'Invalid reset link' }).min(1, 'Invalid reset link').max(200, 'Invalid reset link'),
  newPassword: password,
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;

export const resetPasswordForm = z
  .object({ newPassword: password, confirmPassword: z.string({ error: requiredMessage('Confirm Password') }) })
  .superRefine((form, ctx) => {
    if (form.confirmPassword.trim() === '') {
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: requiredMessage('Confirm Password') });
    } else if (form.newPassword !== form.confirmPassword) {
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: passwordsMatchMessage });
    }
  });

export const tokenParams = z.object({ token: z.string().min(1).max(200) });

export const resetMessages = {
  linkValid: 'Reset link is valid',
  linkInvalid: 'Invalid or expired password reset link.',
  resetSucceeded: 'Password reset successful. You can now log in.',
} as const;

/** POST /doctor/request_password_reset: the link goes to the doctor's address, never in the answer. */
export const resetLinkMailed = 'A link to set a new password has been e-mailed to the doctor';
