import { z } from 'zod';
import { normalizeUsername, requiredMessage, requiredText, userType } from './fields.ts';
import { locale } from './locale-schema.ts';

export const loginRequest = z.object({
  // Looked up as stored: NFKC-normalised (docs/decisions/accounts.md § Usernames).
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
  /** The user's language (docs/decisions/languages.md § The user's language on the server), beyond the spec's fields. */
  locale,
});
export type LoginResponse = z.infer<typeof loginResponse>;

/** How a second step may be proved: an authenticator app's code, a recovery code, a passkey. */
export const secondFactorMethod = z.enum(['totp', 'recovery', 'passkey']);
export type SecondFactorMethod = z.infer<typeof secondFactorMethod>;

/**
 * Login's answer when a password is not enough: no session yet, an interim token that only
 * the second step (or, with `secondFactor: 'enrol'`, enrolment) accepts, for a few minutes.
 */
export const secondFactorRequired = z.object({
  secondFactor: z.enum(['verify', 'enrol']),
  interimToken: z.string(),
  /** The methods this user has (empty when enrolling). */
  methods: z.array(secondFactorMethod),
  /** Seconds the interim token is good for. */
  expiresIn: z.number(),
  message: z.string(),
});
export type SecondFactorRequired = z.infer<typeof secondFactorRequired>;

/** Login answers the session, or that a second step must follow (docs/decisions/second-factor.md § Second factor). */
export const loginAnswer = z.union([loginResponse, secondFactorRequired]);
export type LoginAnswer = z.infer<typeof loginAnswer>;

export { messages } from './session.ts';
