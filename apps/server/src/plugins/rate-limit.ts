import { createRequire } from 'node:module';
import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { operationOf } from '../metrics/portal-metrics.ts';
import { memoryFailureCounter, redisFailureCounter, type FailureCounter } from '../lib/failure-counter.ts';

/**
 * A throttle check is one short Lua script; when Redis takes longer than this the attempt
 * is let through (routes/auth) rather than keeping the person waiting.
 */
const redisTimeouts = { connectTimeout: 2000, commandTimeout: 500 };

/** Counters shared by every process that points at the same Redis (several portals: one database number each). */
const keyPrefix = 'portal:throttle:';

/** Connects at start-up; a Redis that is down then does not stop the portal from starting. */
async function connectRedis(app: FastifyInstance, url: string): Promise<Redis> {
  // ioredis is loaded only when REDIS_URL is set.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    ...redisTimeouts,
    // While disconnected a check fails at once instead of queueing until Redis is back.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    lazyConnect: true,
  });
  // ioredis reports every reconnection attempt; one line per outage is enough.
  let isDown = false;
  redis.on('error', (error: Error) => {
    if (isDown) return;
    isDown = true;
    app.log.error({ err: error }, 'Redis unreachable: sign-in attempts are not counted until it is back');
  });
  redis.on('ready', () => {
    if (isDown) app.log.info('Redis reachable again: sign-in throttling restored');
    isDown = false;
  });
  await redis.connect().catch(() => {});
  app.addHook('onClose', () => redis.disconnect());
  return redis;
}

type RedisStoreCtor = new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key: string,
) => FastifyRateLimitStore;
// @fastify/rate-limit's own Redis store (its Lua script), which the package does not export.
const RedisStore = createRequire(import.meta.url)('@fastify/rate-limit/store/RedisStore.js') as RedisStoreCtor;

/**
 * The Redis store with keys `portal:throttle:<key>`. The package's store names a child
 * limiter after its route (`<prefix><method><url>-`); a limiter made with createRateLimit has
 * no route, so its keys came out as `portal:throttle:undefinedundefined-login-account:...`.
 * Our keys already name what they count (`login-account:<username>`).
 */
function prefixedRedisStore(redis: Redis): FastifyRateLimitStoreCtor {
  return class PrefixedRedisStore implements FastifyRateLimitStore {
    private readonly store: FastifyRateLimitStore;
    constructor(options: object) {
      // The plugin passes its merged parameters (typed as route options).
      const { continueExceeding, exponentialBackoff } = options as {
        continueExceeding?: boolean;
        exponentialBackoff?: boolean;
      };
      this.store = new RedisStore(!!continueExceeding, !!exponentialBackoff, redis, keyPrefix);
    }
    incr(...args: Parameters<FastifyRateLimitStore['incr']>) {
      this.store.incr(...args);
    }
    child(options: object): FastifyRateLimitStore {
      return new PrefixedRedisStore(options);
    }
  };
}

/**
 * @fastify/rate-limit for the routes that ask for it (sign-in), and the counter of failed sign-ins. With REDIS_URL its counters
 * live in Redis, so every process behind a load balancer counts the same attempts;
 * otherwise each process counts in its own memory.
 */
export const rateLimitPlugin = fp(async (app: FastifyInstance) => {
  const { redisUrl } = app.config;
  const redis = redisUrl ? await connectRedis(app, redisUrl) : undefined;
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { store: prefixedRedisStore(redis) } : {}),
  });
  // Failed sign-ins (routes/auth) are counted beside the attempts, in the same place.
  app.decorate('failureCounter', redis ? redisFailureCounter(redis, keyPrefix) : memoryFailureCounter());
});

declare module 'fastify' {
  interface FastifyInstance {
    failureCounter: FailureCounter;
  }
}

/** One limit of a throttle: at most `max` requests per `timeWindow` ('1 minute') for each `key`. */
export interface ThrottleLimit {
  /** Its name in metrics ('address'). */
  name: string;
  max: number;
  timeWindow: string;
  key: (request: FastifyRequest) => string;
}

/**
 * A hook counting each request against `limits`, answering 429 with Retry-After and
 * `message` once one is exceeded; as an onRequest hook it counts before the body is read. It fails open when the counters (Redis) cannot be reached:
 * refusing everyone would lock everyone out; the failure is logged instead.
 * `skip` lets a request through uncounted (staff adding doctors, for instance).
 */
export function throttle(
  app: FastifyInstance,
  limits: ThrottleLimit[],
  message: string,
  skip: (request: FastifyRequest) => boolean = () => false,
) {
  const limiters = limits.map(({ name, max, timeWindow, key }) => ({
    name,
    check: app.createRateLimit({ max, timeWindow, keyGenerator: key }),
  }));
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (skip(request)) return;
    for (const limit of limiters) {
      const result = await limit.check(request).catch((error: unknown) => {
        request.log.warn({ err: error }, 'request not counted: throttle store unavailable');
        return null;
      });
      if (result && !result.isAllowed && result.isExceeded) {
        app.metrics.throttled.inc({ operation: operationOf(request), limit: limit.name });
        return reply.status(429).header('retry-after', result.ttlInSeconds).send({ message });
      }
    }
  };
}
