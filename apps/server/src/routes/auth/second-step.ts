import { endpoints, secondFactorMessages, type Endpoint } from '@portal/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { InterimClaims } from '../../auth/tokens.ts';
import { AppError, unauthorized } from '../../lib/errors.ts';
import { completeSignIn, findInterimUser, findUserToSignIn, type SignInUser } from '../../services/auth.ts';
import {
  passkeyAuthenticationOptions,
  relyingPartyFor,
  verifyPasskeyAssertion,
} from '../../services/second-factor/passkeys.ts';
import { useRecoveryCode } from '../../services/second-factor/recovery-codes.ts';
import { verifyTotpCode } from '../../services/second-factor/totp.ts';
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
 * account and per address.
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
      if (!(await prove(user, request))) throw new AppError(401, rejected);
      await secondStep.forgive(request);
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

  route(app, endpoints.secondStepPasskeyOptions, { preHandler: secondStep.throttle }, async (request) => {
    // Asking for options is not a guess.
    await secondStep.forgive(request);
    const { user } = await interimUser(request);
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
