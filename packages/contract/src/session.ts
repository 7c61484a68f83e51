/**
 * What the sign-in page needs before any schema: plain values with no zod, so the web app
 * can show and store a session without loading the validation library (docs/decisions.md
 * § On the wire). auth.ts and roles.ts re-export them.
 */

/** The seven localStorage keys of a browser session (docs/spec.md section 3). */
export const sessionKeys = ['token', 'username', 'userId', 'userType', 'createdAt', 'profilePic', 'roleId'] as const;

export const messages = {
  loginSucceeded: 'Login successful!',
  loginFailed: 'Invalid username or password',
  accountInactive: 'Your account is not active yet. You will be notified by e-mail once it is activated.',
  tooManyAttempts: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  signedOut: 'Signed out',
} as const;

export const ADMIN_ROLE_ID = -1;
export const DOCTOR_ROLE_ID = 19;
