import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
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
    ...(redis ? { redis, nameSpace: keyPrefix } : {}),
  });
  // Failed sign-ins (routes/auth) are counted beside the attempts, in the same place.
  app.decorate('failureCounter', redis ? redisFailureCounter(redis, keyPrefix) : memoryFailureCounter());
});

declare module 'fastify' {
  interface FastifyInstance {
    failureCounter: FailureCounter;
  }
}
