import { endpoints, messages } from '@portal/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { TOKEN_COOKIE } from '../../plugins/auth.ts';
import { login } from '../../services/auth.ts';
import { endCurrentSession } from '../../services/sessions.ts';
import { route } from '../define-route.ts';
import { forgotPasswordRoutes } from './forgot-password.ts';
import { secondStepRoutes } from './second-step.ts';
import { answerSession, cookiePath, signInClient } from './session-answer.ts';
import { signInThrottle } from './throttle.ts';

/** The username typed at a sign-in, for the audit log of a failed one. */
const attemptedUsername = (request: FastifyRequest) => {
  const username = (request.body as { username?: unknown } | undefined)?.username;
  return typeof username === 'string' ? username.trim() : undefined;
};

/**
 * The account a sign-in names, as the failure counters key it (the login lookup ignores case
 * too). A lone surrogate (JSON's "\ud800") becomes U+FFFD first: encodeURIComponent throws on it.
 */
const accountKey = (request: FastifyRequest) =>
  encodeURIComponent(
    String((request.body as { username?: string }).username)
      .trim()
      .toLowerCase()
      .replace(/\p{Cs}/gu, '\uFFFD'),
  );

export async function authRoutes(app: FastifyInstance) {
  const { throttleAddress, throttleAccount, forgive } = signInThrottle(app, 'login', accountKey);

  route(
    app,
    endpoints.login,
    {
      audit: { action: 'auth.login', actorName: attemptedUsername },
      onRequest: throttleAddress,
      preHandler: throttleAccount,
    },
    async (request, reply) => {
      const signIn = await login(app.db, app.tokens, app.passwords, request.body, signInClient(request)).catch(
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
  // Its own context: its onResponse hook is for its route alone.
  await app.register(forgotPasswordRoutes);

  route(app, endpoints.logout, { audit: { action: 'auth.logout' } }, async (request, reply) => {
    await app.events.endSessions(await endCurrentSession(app.db, request.user));
    reply.clearCookie(TOKEN_COOKIE, { path: cookiePath });
    // Stage models were once sent cacheable for a year: a shared computer's browser drops them now.
    reply.header('clear-site-data', '"cache"');
    return { message: messages.signedOut };
  });
}
