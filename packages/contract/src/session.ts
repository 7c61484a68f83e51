/**
 * What the sign-in page needs before any schema: plain values with no zod, so the web app
 * can show and store a session without loading the validation library (docs/decisions/speed.md
 * § On the wire). auth.ts and roles.ts re-export them.
 */
import type { LoginResponse } from './auth.ts';

/** The seven localStorage keys of a browser session (docs/spec.md section 3). */
export const sessionKeys = ['token', 'username', 'userId', 'userType', 'createdAt', 'profilePic', 'roleId'] as const;

/** What a sign-in answer stores under each of the seven keys. */
export function sessionValues(answer: LoginResponse): Record<(typeof sessionKeys)[number], string> {
  return {
    token: answer.token,
    username: answer.userName,
    userId: String(answer.userId),
    userType: answer.userType,
    createdAt: answer.createdAt,
    profilePic: answer.profilePic ?? '',
    roleId: String(answer.roleId),
  };
}

export const messages = {
  loginSucceeded: 'Login successful!',
  loginFailed: 'Invalid username or password',
  accountInactive: 'Your account is not active yet. You will be notified by e-mail once it is activated.',
  tooManyAttempts: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  signedOut: 'Signed out',
  /** 403 to a session whose role came to require a second factor its user has not set up: the web app sends them to set one up. */
  enrolmentRequired: 'Your role now requires a second factor. Set one up to continue.',
} as const;

export const ADMIN_ROLE_ID = -1;
export const DOCTOR_ROLE_ID = 19;
