import { z } from 'zod';
import { loginResponse } from './auth.ts';

const interimToken = z.string({ error: 'The sign-in has expired. Please sign in again.' }).min(1).max(2000);

/** Six digits from an authenticator app; spaces typed between groups are dropped. */
export const totpCode = z
  .string({ error: 'Code is required' })
  .max(20, 'Enter the 6-digit code')
  .transform((value) => value.replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code'));

/** A recovery code as shown (`ABCD-EFGH-JKMN-PQRS`); case, spaces and dashes do not matter. */
export const recoveryCode = z
  .string({ error: 'Recovery code is required' })
  .max(40, 'Recovery code is not valid')
  .transform((value) => value.replace(/[\s-]/g, '').toUpperCase())
  .pipe(z.string().regex(/^[A-Z2-7]{16}$/, 'Recovery code is not valid'));

/**
 * A WebAuthn answer as `@simplewebauthn/browser` sends it (registration or assertion); its
 * inner parts are checked by `@simplewebauthn/server`, so here only the outline and sizes.
 */
export const webauthnCredential = z.looseObject({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal('public-key'),
  response: z.record(z.string(), z.unknown()),
  clientExtensionResults: z.record(z.string(), z.unknown()).optional(),
  authenticatorAttachment: z.string().max(40).optional(),
});

/** WebAuthn options for `navigator.credentials` (`@simplewebauthn/browser` takes them as they are). */
export const webauthnOptions = z.looseObject({ challenge: z.string() });
export type WebauthnOptions = z.infer<typeof webauthnOptions>;

export const totpStepRequest = z.object({ interimToken, code: totpCode });
export const recoveryStepRequest = z.object({ interimToken, code: recoveryCode });
export const interimRequest = z.object({ interimToken });
export const passkeyStepRequest = z.object({ interimToken, credential: webauthnCredential });
export const passkeyLoginRequest = z.object({ credential: webauthnCredential });

export const totpEnrolment = z.object({
  /** Base32, for typing into an app by hand. */
  secret: z.string(),
  /** The `otpauth://` address the QR code holds. */
  uri: z.string(),
  /** The QR code as an SVG image. */
  qrCodeSvg: z.string(),
});
export const totpConfirmRequest = z.object({ code: totpCode });

export const passkeyRegisterRequest = z.object({
  credential: webauthnCredential,
  name: z.string().trim().max(60, 'Name is at most 60 characters').optional(),
});

/**
 * What enrolling a factor answers: recovery codes when this was the first factor (shown
 * once), and the session when enrolment was the second step of a sign-in.
 */
export const enrolmentResponse = z.object({
  message: z.string(),
  recoveryCodes: z.array(z.string()).nullable(),
  signIn: loginResponse.nullable(),
});
export type EnrolmentResponse = z.infer<typeof enrolmentResponse>;

export const recoveryCodesResponse = z.object({ message: z.string(), recoveryCodes: z.array(z.string()) });

export const passkeySummary = z.object({
  id: z.number(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type PasskeySummary = z.infer<typeof passkeySummary>;

/** The caller's own second factors, for the account screen. */
export const mySecondFactors = z.object({
  /** The caller's role requires a second factor: the last one cannot be removed. */
  isRequired: z.boolean(),
  hasTotp: z.boolean(),
  recoveryCodesLeft: z.number(),
  passkeys: z.array(passkeySummary),
});
export type MySecondFactors = z.infer<typeof mySecondFactors>;

/**
 * A fresh proof before a change of the caller's second factors: the current password, a code
 * from their authenticator app, or a passkey's answer to the challenge of
 * `POST /api/account/reauthenticate/passkey/options`. Exactly one of them.
 */
export const reauthenticateRequest = z
  .object({
    password: z.string().max(200, 'Password is not correct').optional(),
    code: totpCode.optional(),
    credential: webauthnCredential.optional(),
  })
  .refine((body) => [body.password, body.code, body.credential].filter((given) => given !== undefined).length === 1, {
    message: 'Enter your password or a code from your authenticator app, or use a passkey.',
    path: ['password'],
  });
export type ReauthenticateRequest = z.input<typeof reauthenticateRequest>;

export const reauthenticateResponse = z.object({
  message: z.string(),
  /** Until when changes of a second factor are allowed without asking again (ISO time). */
  validUntil: z.string(),
});

export const roleSecondFactorRequest = z.object({
  required: z.boolean({ error: 'Required must be true or false' }),
});

export const secondFactorMessages = {
  codeRejected: 'That code is not right, or was already used. Try the next one.',
  recoveryRejected: 'That recovery code is not right, or was already used.',
  passkeyRejected: 'That passkey could not be verified.',
  interimExpired: 'The sign-in has expired. Please sign in again.',
  enterSecondFactor: 'Enter the code from your authenticator app to finish signing in.',
  enrolSecondFactor: 'Your role requires a second factor. Set one up to finish signing in.',
  enrolled: 'Second factor added',
  removed: 'Second factor removed',
  lastFactorRequired: 'Your role requires a second factor: add another before removing this one.',
  noFactor: 'Add a second factor first.',
  /** The stable answer (403) of a factor change without a fresh proof: the web app asks for one and retries. */
  proofRequired: 'Confirm your password to change your second factor.',
  proofRejected: 'That password or code is not right.',
  proved: 'Confirmed. You can change your second factor for the next 5 minutes.',
  reset: 'Second factor reset: the user sets one up again at their next sign-in.',
} as const;
