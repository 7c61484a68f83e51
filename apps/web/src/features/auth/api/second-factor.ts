import type { LoginResponse, WebauthnOptions } from '@portal/contract';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { api } from '../../../lib/api-client.ts';

/**
 * The second step of a sign-in, enrolment and passkeys (docs/decisions/second-factor.md § Second factor).
 * Calls name their routes, so the sign-in page loads no schema for them; the WebAuthn
 * browser library loads when a passkey is first used. `token`: the interim token of a
 * sign-in that must enrol first; otherwise the session's.
 */

/** The authenticator's answer as the contract takes it (plain objects throughout). */
const asCredential = (credential: AuthenticationResponseJSON | RegistrationResponseJSON) => ({
  ...credential,
  response: { ...credential.response },
  clientExtensionResults: { ...credential.clientExtensionResults },
});

async function assertPasskey(options: WebauthnOptions) {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const optionsJSON = options as unknown as PublicKeyCredentialRequestOptionsJSON;
  return asCredential(await startAuthentication({ optionsJSON }));
}

export const verifyTotpStep = (interimToken: string, code: string): Promise<LoginResponse> =>
  api.call('POST /api/auth/second-factor/totp', { body: { interimToken, code } });

export const verifyRecoveryStep = (interimToken: string, code: string): Promise<LoginResponse> =>
  api.call('POST /api/auth/second-factor/recovery', { body: { interimToken, code } });

export async function verifyPasskeyStep(interimToken: string): Promise<LoginResponse> {
  const options = await api.call('POST /api/auth/second-factor/passkey/options', { body: { interimToken } });
  const credential = await assertPasskey(options);
  return api.call('POST /api/auth/second-factor/passkey', { body: { interimToken, credential } });
}

/** A passkey alone: the browser offers the passkeys it holds for this portal. */
export async function signInWithPasskey(): Promise<LoginResponse> {
  const credential = await assertPasskey(await api.call('POST /api/auth/passkey/options'));
  return api.call('POST /api/auth/passkey', { body: { credential } });
}

export const startTotpEnrolment = (token?: string) => api.call('POST /api/account/second-factor/totp', {}, { token });

export const confirmTotpEnrolment = (code: string, token?: string) =>
  api.call('POST /api/account/second-factor/totp/confirm', { body: { code } }, { token });

export async function registerPasskey(name: string | undefined, token?: string) {
  const options = await api.call('POST /api/account/second-factor/passkey/options', {}, { token });
  const { startRegistration } = await import('@simplewebauthn/browser');
  const optionsJSON = options as unknown as PublicKeyCredentialCreationOptionsJSON;
  const credential = asCredential(await startRegistration({ optionsJSON }));
  return api.call('POST /api/account/second-factor/passkey', { body: { credential, name } }, { token });
}

/** Confirms it is the caller, for a change of their second factors (docs/decisions/second-factor-changes.md). */
export const reauthenticateWithPassword = (password: string) =>
  api.call('POST /api/account/reauthenticate', { body: { password } });

export const reauthenticateWithCode = (code: string) =>
  api.call('POST /api/account/reauthenticate', { body: { code } });

export async function reauthenticateWithPasskey() {
  const credential = await assertPasskey(await api.call('POST /api/account/reauthenticate/passkey/options'));
  return api.call('POST /api/account/reauthenticate', { body: { credential } });
}
