import type { LoginRequest, LoginResponse } from '@portal/contract/auth';
import { api } from '../../../lib/api-client.ts';
import { chooseLocale } from '../../../lib/i18n.ts';
import { sessionStore } from '../../../lib/session.ts';

/**
 * The auth schemas and rows (and zod with them) in their own chunk: the sign-in page is
 * painted and usable without them; its form loads them when a field is first focused.
 */
export const loadAuthContract = () => import('./auth-contract.ts');

export async function login(input: LoginRequest) {
  const { authEndpoints } = await loadAuthContract();
  return api.call(authEndpoints.login, { body: input });
}

/**
 * Stores the seven session values of a finished sign-in, and shows the user's language. The sign-in page has no query cache
 * of its own (app/with-queries.tsx); the app's one is emptied of anything an earlier user read.
 */
export async function startSession(answer: LoginResponse) {
  const { queryClient } = await import('../../../lib/query-client.ts');
  queryClient.clear();
  sessionStore.start(answer);
  // The account's language from now on, on this device too (the pages before sign-in).
  await chooseLocale(answer.locale);
}

/** Signs in: the session, or what the second step needs when a password is not enough. */
export function useLogin() {
  return async (input: LoginRequest) => {
    const answer = await login(input);
    if (!('secondFactor' in answer)) await startSession(answer);
    return answer;
  };
}
