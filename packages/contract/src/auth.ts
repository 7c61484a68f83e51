import { z } from 'zod';
import { normalizeUsername, requiredMessage, requiredText, userType } from './fields.ts';

export const loginRequest = z.object({
  // Looked up as stored: NFKC-normalised (docs/decisions.md § Usernames).
  username: requiredText('Username', 100).overwrite(normalizeUsername),
  password: z
    .string({ error: requiredMessage('Password') })
    .max(1024, 'Password is too long')
    .refine((value) => value.trim().length > 0, requiredMessage('Password')),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const loginResponse = z.object({
  token: z.string(),
  userName: z.string(),
  userId: z.number(),
  userType,
  createdAt: z.string(),
  profilePic: z.string().nullable(),
  roleId: z.number(),
  message: z.string(),
});
export type LoginResponse = z.infer<typeof loginResponse>;

/** The seven localStorage keys of a browser session (docs/spec.md section 3). */
export const sessionKeys = ['token', 'username', 'userId', 'userType', 'createdAt', 'profilePic', 'roleId'] as const;

export const messages = {
  loginSucceeded: 'Login successful!',
  loginFailed: 'Invalid username or password',
  accountInactive: 'Your account is not active yet. You will be notified by e-mail once it is activated.',
  tooManyAttempts: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  signedOut: 'Signed out',
} as const;
