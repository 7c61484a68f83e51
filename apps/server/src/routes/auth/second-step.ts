import { endpoints, secondFactorMessages, type Endpoint } from '@portal/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { InterimClaims } from '../../auth/tokens.ts';
import { AppError, coded, unauthorized } from '../../lib/errors.ts';
import { recordAudit } from '../../services/audit.ts';
import { completeSignIn, findInterimUser, findUserToSignIn, type SignInUser } from '../../services/auth.ts';
import {
  passkeyAuthenticationOptions,
  relyingPartyFor,
  verifyPasskeyAssertion,
} from '../../services/second-factor/passkeys.ts';
import { useRecoveryCode } from '../../services/second-factor/recovery-codes.ts';
import { verifyTotpCode } from '../../services/second-factor/totp.ts';
import {
  countSecondStepFailure,
  findSecondStepLock,
  forgiveSecondStepFailures,
  lockEndText,
} from '../../services/second-step-lock.ts';
import { route, type EndpointRequest } from '../define-route.ts';
import { answerSession, signInClient } from './session-answer.ts';
import { signInThrottle } from './throttle.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The interim token's claims, read once by the throttle. */
    interimClaims?: InterimClaims | null;
  }
}

/** The claims of the interim token in the body, if it is one for the second step. */
async function readInterim(app: FastifyInstance, request: FastifyRequest): Promise<InterimClaims | null> {
  if (request.interimClaims === undefined) {
    const token = (request.body as { interimToken?: unknown } | undefined)?.interimToken;
    const claims = typeof token === 'string' ? await app.tokens.verifyInterim(token) : null;
    request.interimClaims = claims?.step === 'verify' ? claims : null;
  }
  return request.interimClaims;
}

/**
 * The second step of a sign-in (docs/decisions/second-factor.md § Second factor): the interim token from
 * login names the user; a right code or passkey finishes the sign-in through completeSignIn
 * and uses the interim token up. Wrong answers are throttled as wrong passwords are, per
 * account and per address, and counted per account for a day: past the bound the second
 * step locks and the owner is mailed (docs/decisions/second-step-lock-and-enrolment.md).
 */
export async function secondStepRoutes(app: FastifyInstance) {
  const rp = relyingPartyFor(app.config.publicUrl);
  const secondStep = signInThrottle(app, 'second-factor', async (request) => {
    const claims = await readInterim(app, request);
    return claims ? `user-${claims.sub}` : undefined;
  });
  const passkeyAlone = signInThrottle(app, 'passkey', (request) => {
    const id = (request.body as { credential?: { id?: unknown } } | undefined)?.credential?.id;
    return typeof id === 'string' ? encodeURIComponent(id) : undefined;
  });

  /** The user of a valid, unused interim token; anything else forgives the count and refuses. */
  const interimUser = async (request: FastifyRequest) => {
    const claims = await readInterim(app, request);
    if (!claims) throw unauthorized(secondFactorMessages.interimExpired);
    return { claims, user: await findInterimUser(app.db, claims) };
  };

  const refuseLocked = (reply: FastifyReply, lockedUntil: Date) => {
    reply.header('retry-after', Math.max(1, Math.ceil((lockedUntil.getTime() - Date.now()) / 1000)));
    return coded(429, 'secondStepLocked', { until: lockEndText(lockedUntil) });
  };

  /** A locked account's second step is refused before any check, a right answer included. */
  const refuseWhileLocked = async (request: FastifyRequest, reply: FastifyReply, userId: number) => {
    const lockedUntil = await findSecondStepLock(app.db, userId);
    if (!lockedUntil) return;
    // Not a guess: the lock already stands for the guesses.
    await secondStep.forgive(request);
    throw refuseLocked(reply, lockedUntil);
  };

  /** A wrong answer, counted per account; the one that locks the account is answered with the lock. */
  const countWrongAnswer = async (request: FastifyRequest, reply: FastifyReply, userId: number) => {
    const lockedUntil = await countSecondStepFailure(app, userId);
    if (!lockedUntil) return;
    await recordAudit(app.db, {
      actorUserId: null,
      action: 'auth.second_step_locked',
      target: `user:${userId}`,
      outcome: 'refused',
      statusCode: 429,
      address: request.ip,
      requestId: request.id,
    });
    throw refuseLocked(reply, lockedUntil);
  };

  /**
   * Runs one second-step check: a false answer is a counted failure (401), an error that is
   * not a wrong answer is forgiven, a right one finishes the sign-in.
   */
  const finishWith =
    <E extends Endpoint>(
      prove: (user: SignInUser, request: EndpointRequest<E>) => Promise<boolean>,
      rejected: string,
    ) =>
    async (request: EndpointRequest<E>, reply: FastifyReply) => {
      const { claims, user } = await interimUser(request).catch(async (error: unknown) => {
        await secondStep.forgive(request);
        throw error;
      });
      request.auditDetail = { actorUserId: user.userId, target: `user:${user.userId}` };
      await refuseWhileLocked(request, reply, user.userId);
      const isRight = await prove(user, request).catch(async (error: unknown) => {
        if (error instanceof AppError && error.status === 401) await countWrongAnswer(request, reply, user.userId);
        throw error;
      });
      if (!isRight) {
        await countWrongAnswer(request, reply, user.userId);
        throw new AppError(401, rejected);
      }
      await secondStep.forgive(request);
      await forgiveSecondStepFailures(app.db, user.userId);
      await app.revokeToken(claims.jti, claims.exp);
      return answerSession(app, request, reply, await completeSignIn(app.db, app.tokens, user, signInClient(request)));
    };

  const audit = { action: 'auth.second_factor' } as const;

  route(
    app,
    endpoints.secondStepTotp,
    { audit, preHandler: secondStep.throttle },
    finishWith<typeof endpoints.secondStepTotp>(
      (user, request) => verifyTotpCode(app.db, user.userId, request.body.code),
      secondFactorMessages.codeRejected,
    ),
  );

  route(
    app,
    endpoints.secondStepRecovery,
    { audit, preHandler: secondStep.throttle },
    finishWith<typeof endpoints.secondStepRecovery>(
      (user, request) => useRecoveryCode(app.db, user.userId, request.body.code),
      secondFactorMessages.recoveryRejected,
    ),
  );

  route(app, endpoints.secondStepPasskeyOptions, { preHandler: secondStep.throttle }, async (request, reply) => {
    // Asking for options is not a guess.
    await secondStep.forgive(request);
    const { user } = await interimUser(request);
    await refuseWhileLocked(request, reply, user.userId);
    return passkeyAuthenticationOptions(app.db, rp, user.userId);
  });

  route(
    app,
    endpoints.secondStepPasskey,
    { audit, preHandler: secondStep.throttle },
    finishWith<typeof endpoints.secondStepPasskey>(async (user, request) => {
      await verifyPasskeyAssertion(app.db, rp, user.userId, request.body.credential);
      return true;
    }, secondFactorMessages.passkeyRejected),
  );

  route(app, endpoints.passkeyLoginOptions, { preHandler: passkeyAlone.throttle }, () =>
    passkeyAuthenticationOptions(app.db, rp, null),
  );

  route(
    app,
    endpoints.passkeyLogin,
    { audit: { action: 'auth.passkey' }, preHandler: passkeyAlone.throttle },
    async (request, reply) => {
      const userId = await verifyPasskeyAssertion(app.db, rp, null, request.body.credential);
      const user = await findUserToSignIn(app.db, userId).catch(async (error: unknown) => {
        await passkeyAlone.forgive(request);
        throw error;
      });
      await passkeyAlone.forgive(request);
      return answerSession(app, request, reply, await completeSignIn(app.db, app.tokens, user, signInClient(request)));
    },
  );
}
