import { z } from 'zod';
import { normalizeUsername, password, passwordsMatchMessage, requiredMessage, requiredText } from './fields.ts';

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

/**
 * GET /doctor/verify_token: whether a link works; an invitation also says who invited (their
 * name, and a doctor's clinics), so its page welcomes rather than resets.
 */
export const resetTokenCheck = z.object({
  success: z.boolean(),
  message: z.string(),
  invitation: z.object({ invitedBy: z.string().nullable(), clinic: z.string().nullable() }).optional(),
});

export const resetMessages = {
  linkValid: 'Reset link is valid',
  linkInvalid: 'Invalid or expired password reset link.',
  invitationValid: 'Invitation link is valid',
  resetSucceeded: 'Password reset successful. You can now log in.',
} as const;

/** POST /doctor/request_password_reset: the link goes to the doctor's address, never in the answer. */
export const resetLinkMailed = 'A link to set a new password has been e-mailed to the doctor';

/**
 * POST /auth/forgot_password: a username or an e-mail address; the answer is the same whether
 * it names an account or not (docs/decisions/accounts.md § Forgot password).
 */
export const forgotPasswordRequest = z.object({
  username: requiredText('Username or e-mail', 254).overwrite(normalizeUsername),
});
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequest>;

export const forgotPasswordMessages = {
  mailed:
    'If an account goes by that name or address, a link to set a new password is on its way to its e-mail address. It lasts one hour.',
  tooMany: 'Too many requests for a new password. Please wait a while and try again.',
} as const;
