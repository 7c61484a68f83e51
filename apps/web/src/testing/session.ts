import type { LoginResponse } from '@portal/contract';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { sessionStore } from '../lib/session.ts';

const base64url = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '');

/**
 * Signs in as the given account for an hour, as a sign-in answer would; the screens read the
 * session, and nothing checks the token's signature here.
 */
export function signInAs(account: Pick<LoginResponse, 'userId' | 'userName' | 'userType' | 'roleId'>) {
  const token = `${base64url({ alg: 'HS256' })}.${base64url({ exp: Math.floor(Date.now() / 1000) + 3600 })}.signature`;
  sessionStore.start({
    ...account,
    token,
    createdAt: '2026-01-05T10:00:00.000Z',
    profilePic: null,
    message: '',
    locale: 'en',
  });
}

afterEach(() => {
  // What was rendered goes first: a form reads the session while it unmounts.
  cleanup();
  sessionStore.clear();
});
