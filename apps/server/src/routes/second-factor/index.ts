import { endpoints, secondFactorMessages, type EnrolmentResponse } from '@portal/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SignedInUser } from '../../auth/policy.ts';
import { paramTarget } from '../../plugins/audit.ts';
import { completeSignIn, findUserToSignIn } from '../../services/auth.ts';
import { factorChanges, mailFactorChange } from '../../services/second-factor/factor-mail.ts';
import {
  listMySecondFactors,
  regenerateRecoveryCodes,
  removePasskey,
  removeTotp,
} from '../../services/second-factor/factors.ts';
import { assertFreshProof, reauthenticate } from '../../services/second-factor/fresh-proof.ts';
import {
  passkeyAuthenticationOptions,
  passkeyRegistrationOptions,
  registerPasskey,
  relyingPartyFor,
} from '../../services/second-factor/passkeys.ts';
import { resetSecondFactor } from '../../services/second-factor/reset.ts';
import { confirmTotpEnrolment, startTotpEnrolment } from '../../services/second-factor/totp.ts';
import { signInThrottle } from '../auth/throttle.ts';
import { answerSession, signInClient } from '../auth/session-answer.ts';
import { route } from '../define-route.ts';

const enrol = { action: 'second_factor.enrol' } as const;
const remove = { action: 'second_factor.remove' } as const;

/**
 * The caller's own second factors (docs/decisions/second-factor.md § Second factor). A user enrolling
 * during sign-in (interim token) is signed in by the enrolment itself: the factor was just
 * proved, and their interim token is used up. Every change needs a fresh proof on the session
 * and is mailed to the owner (docs/decisions/second-factor-changes.md).
 */
export async function secondFactorRoutes(app: FastifyInstance) {
  const rp = relyingPartyFor(app.config.publicUrl);

  /** A session alone does not change a factor: a proof (password, code, passkey) of the last minutes does. */
  const withProof = {
    preHandler: async (request: FastifyRequest) => assertFreshProof(app.db, request.user!),
  };
  /** The owner hears of each change, whoever made it; sent once the change is in. */
  const tellOwner = async (request: FastifyRequest & { user: SignedInUser }, change: string) => {
    await mailFactorChange(app.db, app.outbox, request.user.userId, change, signInClient(request));
    app.outbox.kick();
  };

  const finishEnrolment = async (
    request: FastifyRequest & { user: SignedInUser },
    reply: FastifyReply,
    enrolled: Pick<EnrolmentResponse, 'message' | 'recoveryCodes'>,
    change: string,
  ): Promise<EnrolmentResponse> => {
    request.auditDetail = { target: `user:${request.user.userId}` };
    await tellOwner(request, change);
    if (!request.user.isEnrolling) return { ...enrolled, signIn: null };
    await app.revokeToken(request.user.jti, request.user.exp);
    const user = await findUserToSignIn(app.db, request.user.userId);
    const session = await completeSignIn(app.db, app.tokens, user, signInClient(request));
    return { ...enrolled, signIn: answerSession(app, request, reply, session) };
  };

  route(app, endpoints.mySecondFactors, {}, (request) => listMySecondFactors(app.db, request.user.userId));

  route(app, endpoints.totpEnrolStart, withProof, (request) => startTotpEnrolment(app.db, request.user.userId));

  route(app, endpoints.totpEnrolConfirm, { audit: enrol, ...withProof }, async (request, reply) =>
    finishEnrolment(
      request,
      reply,
      await confirmTotpEnrolment(app.db, request.user.userId, request.body.code),
      factorChanges.totpAdded,
    ),
  );

  route(app, endpoints.totpRemove, { audit: remove, ...withProof }, async (request) => {
    await removeTotp(app.db, request.user.userId);
    request.auditDetail = { target: `user:${request.user.userId}` };
    await tellOwner(request, factorChanges.totpRemoved);
    return { message: secondFactorMessages.removed };
  });

  route(
    app,
    endpoints.recoveryCodesRegenerate,
    { audit: { action: 'second_factor.recovery_codes' }, ...withProof },
    async (request) => {
      const recoveryCodes = await regenerateRecoveryCodes(app.db, request.user.userId);
      await tellOwner(request, factorChanges.recoveryCodes);
      return { message: 'New recovery codes: the earlier ones no longer work.', recoveryCodes };
    },
  );

  route(app, endpoints.passkeyRegisterOptions, withProof, (request) =>
    passkeyRegistrationOptions(app.db, rp, request.user.userId),
  );

  route(app, endpoints.passkeyRegister, { audit: enrol, ...withProof }, async (request, reply) =>
    finishEnrolment(
      request,
      reply,
      await registerPasskey(app.db, rp, request.user.userId, request.body.credential, request.body.name),
      factorChanges.passkeyAdded,
    ),
  );

  route(app, endpoints.passkeyRemove, { audit: remove, ...withProof }, async (request) => {
    await removePasskey(app.db, request.user.userId, request.record.passkeyId);
    request.auditDetail = { target: `passkey:${request.params.id}` };
    await tellOwner(request, factorChanges.passkeyRemoved);
    return { message: secondFactorMessages.removed };
  });

  // Wrong answers count as wrong passwords do (per address, and per account from one address
  // and from all), so a session is no way around the sign-in's limits.
  const proofThrottle = signInThrottle(app, 'reauthenticate', (request) =>
    request.user ? `user-${request.user.userId}` : undefined,
  );

  route(app, endpoints.reauthenticatePasskeyOptions, {}, (request) =>
    passkeyAuthenticationOptions(app.db, rp, request.user.userId),
  );

  route(
    app,
    endpoints.reauthenticate,
    { audit: { action: 'second_factor.reauthenticate' }, preHandler: proofThrottle.throttle },
    async (request) => {
      request.auditDetail = { target: `user:${request.user.userId}` };
      const proved = await reauthenticate({ db: app.db, passwords: app.passwords, rp }, request.user, request.body);
      await proofThrottle.forgive(request);
      return proved;
    },
  );

  route(
    app,
    endpoints.userSecondFactorReset,
    { audit: { action: 'user.second_factor_reset', target: paramTarget({ user: 'id' }) } },
    async (request) => {
      const ended = await resetSecondFactor({ db: app.db, outbox: app.outbox }, request.user, request.params.id);
      app.outbox.kick();
      await app.events.endSessions(ended);
      return { message: secondFactorMessages.reset };
    },
  );
}
