import { idParams, messageResponse } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import {
  enrolmentResponse,
  mySecondFactors,
  passkeyRegisterRequest,
  reauthenticateRequest,
  reauthenticateResponse,
  recoveryCodesResponse,
  totpConfirmRequest,
  totpEnrolment,
  webauthnOptions,
} from '../second-factor.ts';

const tag = 'second-factor';

/**
 * The caller's own second factors. Enrolment also takes the interim token of a sign-in whose
 * role requires a factor the user lacks; removal and new recovery codes need a full session.
 * Every change (403 `secondFactorMessages.proofRequired` otherwise) needs a fresh proof on the
 * session, `POST /api/account/reauthenticate` in the last 5 minutes; an enrolment during
 * sign-in needs none, its password was just given (docs/decisions/second-factor-changes.md).
 */
export const secondFactorEndpoints = {
  mySecondFactors: defineEndpoint({
    method: 'GET',
    path: '/api/account/second-factor',
    operationId: 'mySecondFactors',
    summary: "The caller's second factors: authenticator app, recovery codes left, passkeys",
    tag,
    access: 'signedIn',
    acceptsEnrolmentToken: true,
    answer: mySecondFactors,
  }),
  totpEnrolStart: defineEndpoint({
    method: 'POST',
    path: '/api/account/second-factor/totp',
    operationId: 'totpEnrolStart',
    summary: 'Start setting up an authenticator app: a new secret and its QR code, unconfirmed',
    tag,
    access: 'signedIn',
    acceptsEnrolmentToken: true,
    answer: totpEnrolment,
    errors: [403, 409],
  }),
  totpEnrolConfirm: defineEndpoint({
    method: 'POST',
    path: '/api/account/second-factor/totp/confirm',
    operationId: 'totpEnrolConfirm',
    summary: 'Confirm the authenticator app with a code from it; recovery codes come with the first factor',
    tag,
    access: 'signedIn',
    acceptsEnrolmentToken: true,
    body: totpConfirmRequest,
    answer: enrolmentResponse,
    errors: [403, 409, 429],
  }),
  totpRemove: defineEndpoint({
    method: 'DELETE',
    path: '/api/account/second-factor/totp',
    operationId: 'totpRemove',
    summary: 'Remove the authenticator app (refused when it is the last factor a role requires)',
    tag,
    access: 'signedIn',
    answer: messageResponse,
    errors: [403, 404, 409],
  }),
  recoveryCodesRegenerate: defineEndpoint({
    method: 'POST',
    path: '/api/account/second-factor/recovery-codes',
    operationId: 'recoveryCodesRegenerate',
    summary: 'Ten new recovery codes, shown once; the earlier ones stop working',
    tag,
    access: 'signedIn',
    answer: recoveryCodesResponse,
    errors: [403, 409],
  }),
  passkeyRegisterOptions: defineEndpoint({
    method: 'POST',
    path: '/api/account/second-factor/passkey/options',
    operationId: 'passkeyRegisterOptions',
    summary: 'Start registering a passkey: the creation options',
    tag,
    access: 'signedIn',
    acceptsEnrolmentToken: true,
    answer: webauthnOptions,
    errors: [403],
  }),
  passkeyRegister: defineEndpoint({
    method: 'POST',
    path: '/api/account/second-factor/passkey',
    operationId: 'passkeyRegister',
    summary: "Register a passkey from the authenticator's answer",
    tag,
    access: 'signedIn',
    acceptsEnrolmentToken: true,
    body: passkeyRegisterRequest,
    answer: enrolmentResponse,
    errors: [403, 409],
  }),
  passkeyRemove: defineEndpoint({
    method: 'DELETE',
    path: '/api/account/second-factor/passkey/:id',
    record: 'passkey',
    operationId: 'passkeyRemove',
    summary: "Remove one of the caller's passkeys (refused when it is the last factor a role requires)",
    tag,
    access: 'signedIn',
    params: idParams,
    answer: messageResponse,
    errors: [403, 404, 409],
  }),
  reauthenticatePasskeyOptions: defineEndpoint({
    method: 'POST',
    path: '/api/account/reauthenticate/passkey/options',
    operationId: 'reauthenticatePasskeyOptions',
    summary: 'Assertion options for confirming it is the caller with one of their own passkeys',
    tag,
    access: 'signedIn',
    beforeEnrolment: true,
    answer: webauthnOptions,
  }),
  reauthenticate: defineEndpoint({
    method: 'POST',
    path: '/api/account/reauthenticate',
    operationId: 'reauthenticate',
    summary:
      'Confirm it is the caller (password, authenticator code or passkey): second factors may change for 5 minutes',
    tag,
    access: 'signedIn',
    // A session that must set up a factor first confirms it is the caller before enrolling.
    beforeEnrolment: true,
    body: reauthenticateRequest,
    answer: reauthenticateResponse,
    errors: [403, 429],
  }),
  userSecondFactorReset: defineEndpoint({
    method: 'POST',
    path: '/api/user/:id/second-factor/reset',
    operationId: 'userSecondFactorReset',
    summary:
      'Remove every second factor and recovery code of a user and end their sessions: they set one up again at their next sign-in',
    tag,
    // The administrator: any account; Users-page staff: Web users no stronger than themselves.
    access: { pages: ['/users'] },
    params: idParams,
    answer: messageResponse,
    errors: [404],
  }),
};
