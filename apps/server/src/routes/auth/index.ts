import { endpoints, messages } from '@portal/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { TOKEN_COOKIE } from '../../plugins/auth.ts';
import { login } from '../../services/auth.ts';
import { route } from '../define-route.ts';
import { secondStepRoutes } from './second-step.ts';
import { answerSession, cookiePath, signInClient } from './session-answer.ts';
import { signInThrottle } from './throttle.ts';

/** The username typed at a sign-in, for the audit log of a failed one. */
const attemptedUsername = (request: FastifyRequest) => {
  const username = (request.body as { username?: unknown } | undefined)?.username;
  return typeof username === 'string' ? username.trim() : undefined;
};

/** The account a sign-in names, as the failure counters key it (the login lookup ignores case too). */
const accountKey = (request: FastifyRequest) =>
  encodeURIComponent(
    String((request.body as { username?: string }).username)
      .trim()
      .toLowerCase(),
  );

export async function authRoutes(app: FastifyInstance) {
  const { throttle, forgive } = signInThrottle(app, 'login', accountKey);

  route(
    app,
    endpoints.login,
    { audit: { action: 'auth.login', actorName: attemptedUsername }, preHandler: throttle },
    async (request, reply) => {
      const signIn = await login(app.db, app.tokens, request.body, signInClient(request)).catch(
        async (error: unknown) => {
          const isWrongPassword = error instanceof AppError && error.status === 401;
          if (!isWrongPassword) await forgive(request);
          throw error;
        },
      );
      await forgive(request);
      if ('secondFactor' in signIn) return signIn;
      return answerSession(app, request, reply, signIn);
    },
  );

  await secondStepRoutes(app);

  route(app, endpoints.logout, { audit: { action: 'auth.logout' } }, async (request, reply) => {
    await app.revokeToken(request.user.jti, request.user.exp);
    app.events.endSession(request.user.jti);
    reply.clearCookie(TOKEN_COOKIE, { path: cookiePath });
    return { message: messages.signedOut };
  });
}
