import { endpoints, secondFactorMessages, type EnrolmentResponse } from '@portal/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SignedInUser } from '../../auth/policy.ts';
import { completeSignIn, findUserToSignIn } from '../../services/auth.ts';
import {
  listMySecondFactors,
  regenerateRecoveryCodes,
  removePasskey,
  removeTotp,
} from '../../services/second-factor/factors.ts';
import { passkeyRegistrationOptions, registerPasskey, relyingPartyFor } from '../../services/second-factor/passkeys.ts';
import { confirmTotpEnrolment, startTotpEnrolment } from '../../services/second-factor/totp.ts';
import { answerSession, signInClient } from '../auth/session-answer.ts';
import { route } from '../define-route.ts';

const enrol = { action: 'second_factor.enrol' } as const;
const remove = { action: 'second_factor.remove' } as const;

/**
 * The caller's own second factors (docs/decisions/second-factor.md § Second factor). A user enrolling
 * during sign-in (interim token) is signed in by the enrolment itself: the factor was just
 * proved, and their interim token is used up.
 */
export async function secondFactorRoutes(app: FastifyInstance) {
  const rp = relyingPartyFor(app.config.publicUrl);

  const finishEnrolment = async (
    request: FastifyRequest & { user: SignedInUser },
    reply: FastifyReply,
    enrolled: Pick<EnrolmentResponse, 'message' | 'recoveryCodes'>,
  ): Promise<EnrolmentResponse> => {
    request.auditDetail = { target: `user:${request.user.userId}` };
    if (!request.user.isEnrolling) return { ...enrolled, signIn: null };
    await app.revokeToken(request.user.jti, request.user.exp);
    const user = await findUserToSignIn(app.db, request.user.userId);
    const session = await completeSignIn(app.db, app.tokens, user, signInClient(request));
    return { ...enrolled, signIn: answerSession(app, request, reply, session) };
  };

  route(app, endpoints.mySecondFactors, {}, (request) => listMySecondFactors(app.db, request.user.userId));

  route(app, endpoints.totpEnrolStart, {}, (request) => startTotpEnrolment(app.db, request.user.userId));

  route(app, endpoints.totpEnrolConfirm, { audit: enrol }, async (request, reply) =>
    finishEnrolment(request, reply, await confirmTotpEnrolment(app.db, request.user.userId, request.body.code)),
  );

  route(app, endpoints.totpRemove, { audit: remove }, async (request) => {
    await removeTotp(app.db, request.user.userId);
    request.auditDetail = { target: `user:${request.user.userId}` };
    return { message: secondFactorMessages.removed };
  });

  route(
    app,
    endpoints.recoveryCodesRegenerate,
    { audit: { action: 'second_factor.recovery_codes' } },
    async (request) => ({
      message: 'New recovery codes: the earlier ones no longer work.',
      recoveryCodes: await regenerateRecoveryCodes(app.db, request.user.userId),
    }),
  );

  route(app, endpoints.passkeyRegisterOptions, {}, (request) =>
    passkeyRegistrationOptions(app.db, rp, request.user.userId),
  );

  route(app, endpoints.passkeyRegister, { audit: enrol }, async (request, reply) =>
    finishEnrolment(
      request,
      reply,
      await registerPasskey(app.db, rp, request.user.userId, request.body.credential, request.body.name),
    ),
  );

  route(app, endpoints.passkeyRemove, { audit: remove }, async (request) => {
    await removePasskey(app.db, request.user.userId, request.record.passkeyId);
    request.auditDetail = { target: `passkey:${request.params.id}` };
    return { message: secondFactorMessages.removed };
  });
}
