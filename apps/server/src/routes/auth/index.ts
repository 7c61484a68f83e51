import { endpoints, messages } from '@portal/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { TOKEN_COOKIE } from '../../plugins/auth.ts';
import { login } from '../../services/auth.ts';
import { endCurrentSession } from '../../services/sessions.ts';
import { route } from '../define-route.ts';
import { pictureUrl } from '../urls.ts';

/** The username typed at a sign-in, for the audit log of a failed one. */
const attemptedUsername = (request: FastifyRequest) => {
  const username = (request.body as { username?: unknown } | undefined)?.username;
  return typeof username === 'string' ? username.trim() : undefined;
};

const attemptsWindow = { address: '1 minute' };
const failuresWindowMs = 15 * 60 * 1000;

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

declare module 'fastify' {
  interface FastifyRequest {
    /** The failure counters this sign-in was counted in, to take back when it is not a failure. */
    countedFailures?: string[];
  }
}

export async function authRoutes(app: FastifyInstance) {
  // Every attempt from an address counts, before its body is read: slow bodies count too.
  const perAddress = app.createRateLimit({
    max: app.config.loginAttemptsPerAddress,
    timeWindow: attemptsWindow.address,
    keyGenerator: (request) => `login-address:${request.ip}`,
  });
  const cookiePath = '/';
  const failures = app.failureCounter;

  // Fail open when the counters (Redis) cannot be reached: refusing every sign-in would
  // lock out everyone, while each guess still costs an argon2 hash. Caught here rather
  // than with skipOnError, which would drop the error unlogged.
  const notCounted = (request: FastifyRequest) => (error: unknown) => {
    request.log.warn({ err: error }, 'sign-in attempt not counted: throttle store unavailable');
    return null;
  };
  const tooMany = (reply: FastifyReply, retryAfterSeconds: number) =>
    reply.status(429).header('retry-after', retryAfterSeconds).send({ message: messages.tooManyAttempts });

  /** Takes back what this sign-in was counted as: it was right, or not a password check at all. */
  const forgive = async (request: FastifyRequest) => {
    for (const key of request.countedFailures ?? []) await failures.forgive(key).catch(notCounted(request));
    request.countedFailures = [];
  };

  /** Per address, every attempt, counted as it arrives (onRequest). */
  const throttleAddress = async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await perAddress(request).catch(notCounted(request));
    if (result && !result.isAllowed && result.isExceeded) return tooMany(reply, result.ttlInSeconds);
  };

  /**
   * Per account, failed ones only, once the body names the account: from one address (so a
   * stranger's wrong guesses do not lock the owner out elsewhere) and, with a much higher
   * ceiling, from all addresses together (against spraying from many). docs/decisions.md
   * § Sign-in throttling.
   */
  const throttleAccount = async (request: FastifyRequest, reply: FastifyReply) => {
    const account = accountKey(request);
    const limits = [
      {
        key: `login-failures:account-address:${account}:${encodeURIComponent(request.ip)}`,
        max: app.config.loginAttemptsPerAccountAndAddress,
      },
      { key: `login-failures:account:${account}`, max: app.config.loginAttemptsPerAccount },
    ];
    request.countedFailures = [];
    for (const limit of limits) {
      const counted = await failures.hit(limit.key, failuresWindowMs).catch(notCounted(request));
      if (!counted) continue;
      request.countedFailures.push(limit.key);
      if (counted.count > limit.max) {
        await forgive(request);
        return tooMany(reply, counted.ttlSeconds);
      }
    }
  };

  route(
    app,
    endpoints.login,
    {
      audit: { action: 'auth.login', actorName: attemptedUsername },
      onRequest: throttleAddress,
      preHandler: throttleAccount,
    },
    async (request, reply) => {
      const context = { ip: request.ip, userAgent: request.headers['user-agent'] };
      const signIn = await login(app.db, app.tokens, request.body, context).catch(async (error: unknown) => {
        const isWrongPassword = error instanceof AppError && error.status === 401;
        if (!isWrongPassword) await forgive(request);
        throw error;
      });
      await forgive(request);
      const { exp, profilePicKey, ...signedIn } = signIn;
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
    await app.events.endSessions(await endCurrentSession(app.db, request.user));
    reply.clearCookie(TOKEN_COOKIE, { path: cookiePath });
    // Stage models were once sent cacheable for a year: a shared computer's browser drops them now.
    reply.header('clear-site-data', '"cache"');
    return { message: messages.signedOut };
  });
}
