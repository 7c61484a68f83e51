import { messages } from '@portal/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { operationOf } from '../../metrics/portal-metrics.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The failure counters this sign-in was counted in, to take back when it is not a failure. */
    countedFailures?: string[];
  }
}

const failuresWindowMs = 15 * 60 * 1000;

/**
 * Sign-in throttling, for the password step and the second step alike: per address, every
 * attempt; per account, failed ones only: from one address (so a stranger's wrong guesses
 * do not lock the owner out elsewhere) and, with a much higher ceiling, from all addresses
 * together (against spraying from many). docs/decisions/sign-in-and-sessions.md § Sign-in throttling.
 *
 * `kind` names the counters (`login`, `second-factor`); `accountOf` the account an attempt
 * is for, as the counters key it, or nothing when the request names none.
 */
export function signInThrottle(
  app: FastifyInstance,
  kind: string,
  accountOf: (request: FastifyRequest) => string | undefined | Promise<string | undefined>,
) {
  const perAddress = app.createRateLimit({
    max: app.config.loginAttemptsPerAddress,
    timeWindow: '1 minute',
    keyGenerator: (request) => `${kind}-address:${request.ip}`,
  });
  const failures = app.failureCounter;

  // Fail open when the counters (Redis) cannot be reached: refusing every sign-in would
  // lock out everyone, while each guess still costs an argon2 hash. Caught here rather
  // than with skipOnError, which would drop the error unlogged.
  const notCounted = (request: FastifyRequest) => (error: unknown) => {
    request.log.warn({ err: error }, 'sign-in attempt not counted: throttle store unavailable');
    return null;
  };
  const tooMany = (request: FastifyRequest, reply: FastifyReply, limit: string, retryAfterSeconds: number) => {
    app.metrics.throttled.inc({ operation: operationOf(request), limit });
    return reply.status(429).header('retry-after', retryAfterSeconds).send({ message: messages.tooManyAttempts });
  };

  /** Takes back what this attempt was counted as: it was right, or not a check at all. */
  const forgive = async (request: FastifyRequest) => {
    for (const key of request.countedFailures ?? []) await failures.forgive(key).catch(notCounted(request));
    request.countedFailures = [];
  };

  /** Per address, every attempt; as an onRequest hook it counts before the body is read, so slow bodies count too. */
  const throttleAddress = async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await perAddress(request).catch(notCounted(request));
    if (result && !result.isAllowed && result.isExceeded)
      return tooMany(request, reply, 'address', result.ttlInSeconds);
  };

  /** Per account, once the body names it (a preHandler). */
  const throttleAccount = async (request: FastifyRequest, reply: FastifyReply) => {
    request.countedFailures = [];
    // A 401 to this request is a failed sign-in (metrics).
    request.signInStep = kind;
    const account = await accountOf(request);
    if (account === undefined) return;
    const limits = [
      {
        key: `${kind}-failures:account-address:${account}:${encodeURIComponent(request.ip)}`,
        max: app.config.loginAttemptsPerAccountAndAddress,
        limit: 'account_address',
      },
      { key: `${kind}-failures:account:${account}`, max: app.config.loginAttemptsPerAccount, limit: 'account' },
    ];
    for (const limit of limits) {
      const counted = await failures.hit(limit.key, failuresWindowMs).catch(notCounted(request));
      if (!counted) continue;
      request.countedFailures.push(limit.key);
      if (counted.count > limit.max) {
        await forgive(request);
        return tooMany(request, reply, limit.limit, counted.ttlSeconds);
      }
    }
  };

  /** Both, in one preHandler. */
  const throttle = async (request: FastifyRequest, reply: FastifyReply) => {
    await throttleAddress(request, reply);
    if (!reply.sent) await throttleAccount(request, reply);
  };

  return { throttleAddress, throttleAccount, throttle, forgive };
}
