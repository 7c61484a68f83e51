import { endpoints, messages } from '@portal/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TOKEN_COOKIE } from '../../plugins/auth.ts';
import { login } from '../../services/auth.ts';
import { route } from '../define-route.ts';
import { pictureUrl } from '../urls.ts';

/** The username typed at a sign-in, for the audit log of a failed one. */
const attemptedUsername = (request: FastifyRequest) => {
  const username = (request.body as { username?: unknown } | undefined)?.username;
  return typeof username === 'string' ? username.trim() : undefined;
};

const attemptsWindow = { address: '1 minute', account: '15 minutes' };

export async function authRoutes(app: FastifyInstance) {
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

  const throttle = async (request: FastifyRequest, reply: FastifyReply) => {
    for (const limit of [perAddress, perAccount]) {
      // Fail open when the counters (Redis) cannot be reached: refusing every sign-in
      // would lock out everyone, while each guess still costs an argon2 hash. Caught
      // here rather than with skipOnError, which would drop the error unlogged.
      const result = await limit(request).catch((error: unknown) => {
        request.log.warn({ err: error }, 'sign-in attempt not counted: throttle store unavailable');
        return null;
      });
      if (result && !result.isAllowed && result.isExceeded) {
        return reply.status(429).header('retry-after', result.ttlInSeconds).send({ message: messages.tooManyAttempts });
      }
    }
  };

  route(
    app,
    endpoints.login,
    { audit: { action: 'auth.login', actorName: attemptedUsername }, preHandler: throttle },
    async (request, reply) => {
      const { exp, profilePicKey, ...signedIn } = await login(app.db, app.tokens, request.body);
      const answer = { ...signedIn, profilePic: pictureUrl(profilePicKey) };
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

  route(app, endpoints.logout, { audit: { action: 'auth.logout' } }, async (request, reply) => {
    await app.revokeToken(request.user.jti, request.user.exp);
    app.events.endSession(request.user.jti);
    reply.clearCookie(TOKEN_COOKIE, { path: cookiePath });
    return { message: messages.signedOut };
  });
}
