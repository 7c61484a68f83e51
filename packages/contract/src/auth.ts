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

export { messages, sessionKeys } from './session.ts';
