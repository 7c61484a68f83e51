import { loginRequest, loginResponse, messageResponse, messages } from '@portal/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { TOKEN_COOKIE } from '../../plugins/auth.ts';
import { login } from '../../services/auth.ts';
import { errorResponses } from '../responses.ts';

/** The username typed at a sign-in, for the audit log of a failed one. */
const attemptedUsername = (request: FastifyRequest) => {
  const username = (request.body as { username?: unknown } | undefined)?.username;
  return typeof username === 'string' ? username.trim() : undefined;
};

const attemptsWindow = { address: '1 minute', account: '15 minutes' };

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  // Throttled per address and per account, after the body is read: every attempt counts.
  const perAddress = app.createRateLimit({
    max: app.config.loginAttemptsPerAddress,
    timeWindow: attemptsWindow.address,
    keyGenerator: (request) => `login-address:${request.ip}`,
  });
  const perAccount = app.createRateLimit({
    max: app.config.loginAttemptsPerAccount,
    timeWindow: attemptsWindow.account,
    keyGenerator: (request) =>
      `login-account:${String((request.body as { username?: string }).username)
        .trim()
        .toLowerCase()}`,
  });
  const cookiePath = '/';

  app.post(
    '/login',
    {
      config: { access: 'public', audit: { action: 'auth.login', actorName: attemptedUsername } },
      schema: {
        tags: ['auth'],
        security: [],
        body: loginRequest,
        response: { 200: loginResponse, ...errorResponses(400, 401, 403, 429, 503) },
      },
      preHandler: async (request, reply) => {
        for (const limit of [perAddress, perAccount]) {
          // Fail open when the counters (Redis) cannot be reached: refusing every sign-in
          // would lock out everyone, while each guess still costs an argon2 hash. Caught
          // here rather than with skipOnError, which would drop the error unlogged.
          const result = await limit(request).catch((error: unknown) => {
            request.log.warn({ err: error }, 'sign-in attempt not counted: throttle store unavailable');
            return null;
          });
          if (result && !result.isAllowed && result.isExceeded) {
            return reply
              .status(429)
              .header('retry-after', result.ttlInSeconds)
              .send({ message: messages.tooManyAttempts });
          }
        }
      },
    },
    async (request, reply) => {
      const { exp, ...answer } = await login(app.db, app.tokens, request.body);
      request.auditDetail = { actorUserId: answer.userId, target: `user:${answer.userId}` };
      reply.setCookie(TOKEN_COOKIE, answer.token, {
        httpOnly: true,
        sameSite: 'strict',
        secure: app.config.publicUrl.startsWith('https:'),
        path: cookiePath,
        expires: new Date(exp * 1000),
      });
      return answer;
    },
  );

  app.post(
    '/logout',
    {
      config: { access: 'signedIn', audit: { action: 'auth.logout' } },
      schema: { tags: ['auth'], response: { 200: messageResponse, ...errorResponses(401, 503) } },
    },
    async (request, reply) => {
      const user = request.user!;
      await app.revokeToken(user.jti, user.exp);
      reply.clearCookie(TOKEN_COOKIE, { path: cookiePath });
      return { message: messages.signedOut };
    },
  );
};
