import type { ForgotPasswordRequest } from '@portal/contract/password-reset';
import { api } from '../../../lib/api-client.ts';
import { loadAuthContract } from './login.ts';

/** "Forgot password?": the same answer whether the name is someone's; the link goes by e-mail. */
export async function requestPasswordLink(input: ForgotPasswordRequest) {
  const { authEndpoints } = await loadAuthContract();
  return api.call(authEndpoints.forgotPassword, { body: input });
}
