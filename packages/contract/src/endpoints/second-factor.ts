import { idParams, messageResponse } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import {
  enrolmentResponse,
  mySecondFactors,
  passkeyRegisterRequest,
  recoveryCodesResponse,
  totpConfirmRequest,
  totpEnrolment,
  webauthnOptions,
} from '../second-factor.ts';

const tag = 'second-factor';

/**
 * The caller's own second factors. Enrolment also takes the interim token of a sign-in whose
 * role requires a factor the user lacks; removal and new recovery codes need a full session.
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
    errors: [409],
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
    errors: [409, 429],
  }),
  totpRemove: defineEndpoint({
    method: 'DELETE',
    path: '/api/account/second-factor/totp',
    operationId: 'totpRemove',
    summary: 'Remove the authenticator app (refused when it is the last factor a role requires)',
    tag,
    access: 'signedIn',
    answer: messageResponse,
    errors: [404, 409],
  }),
  recoveryCodesRegenerate: defineEndpoint({
    method: 'POST',
    path: '/api/account/second-factor/recovery-codes',
    operationId: 'recoveryCodesRegenerate',
    summary: 'Ten new recovery codes, shown once; the earlier ones stop working',
    tag,
    access: 'signedIn',
    answer: recoveryCodesResponse,
    errors: [409],
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
    errors: [409],
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
    errors: [404, 409],
  }),
};
