import { messages } from '@portal/contract';
import { randomBytes, randomInt } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../e2e/helpers/portal-process.ts';
import { buildApp } from '../src/app.ts';
import type { Config } from '../src/config.ts';
import { createStaff } from './helpers/factories.ts';
import { createTestApp, testAdmin, type TestApp } from './helpers/test-app.ts';

const limit = 3;
/** Redis outlives the run and other runs share it: names and addresses are new each time. */
const freshName = () => `user${randomBytes(6).toString('hex')}`;
const freshAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** Another portal process, as far as the throttle can tell: its own app on the same database. */
async function siblingApp(t: TestApp, config: Partial<Config>): Promise<FastifyInstance> {
  const app = await buildApp({ config: { ...t.config, ...config }, database: t.app.database, logger: false });
  await app.ready();
  return app;
}

function signIn(app: FastifyInstance, username: string, options: { password?: string; from?: string } = {}) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username, password: options.password ?? 'wrong-password' },
    remoteAddress: options.from ?? freshAddress(),
  });
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe.runIf(process.env.REDIS_URL)(
  'POST /api/auth/login throttled in Redis (needs REDIS_URL): two app instances count together',
  () => {
    let first: FastifyInstance;
    let second: FastifyInstance;
    beforeAll(async () => {
      const shared = {
        redisUrl: process.env.REDIS_URL,
        loginAttemptsPerAccount: limit,
        loginAttemptsPerAddress: limit,
      };
      [first, second] = await Promise.all([siblingApp(t, shared), siblingApp(t, shared)]);
    });
    afterAll(async () => {
      await Promise.all([first?.close(), second?.close()]);
    });

    it('refuses the next attempt for an account tried on both instances', async () => {
      const username = freshName();
      expect((await signIn(first, username)).statusCode).toBe(401);
      expect((await signIn(first, username)).statusCode).toBe(401);
      expect((await signIn(second, username)).statusCode).toBe(401);
      for (const app of [first, second]) {
        const refused = await signIn(app, username);
        expect(refused.statusCode).toBe(429);
        expect(refused.json()).toEqual({ message: messages.tooManyAttempts });
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      }
    });

    it('names its Redis keys portal:throttle:<what>:<whom>, not portal:throttle:undefinedundefined-...', async () => {
      const username = freshName();
      const from = freshAddress();
      expect((await signIn(first, username, { from })).statusCode).toBe(401);
      const redis = new Redis(process.env.REDIS_URL!);
      try {
        const keys = [
          ...(await redis.keys(`portal:throttle:*${username}`)),
          ...(await redis.keys(`portal:throttle:*${from}`)),
        ];
        // Attempts per address; failures per account and address, and per account (docs/decisions/sign-in-and-sessions.md § Sign-in throttling).
        expect(keys.sort()).toEqual([
          `portal:throttle:login-address:${from}`,
          `portal:throttle:login-failures:account-address:${username}:${from}`,
          `portal:throttle:login-failures:account:${username}`,
        ]);
      } finally {
        redis.disconnect();
      }
    });

    it('refuses the next attempt from an address seen by both instances', async () => {
      const from = freshAddress();
      expect((await signIn(first, freshName(), { from })).statusCode).toBe(401);
      expect((await signIn(second, freshName(), { from })).statusCode).toBe(401);
      expect((await signIn(second, freshName(), { from })).statusCode).toBe(401);
      expect((await signIn(first, freshName(), { from })).statusCode).toBe(429);
      // Another address is not affected.
      expect((await signIn(second, freshName())).statusCode).toBe(401);
    });
  },
);

describe.runIf(process.env.REDIS_URL)(
  'POST /api/auth/login failures counted per account and address in Redis (needs REDIS_URL)',
  () => {
    it("a stranger's failures on both instances refuse the stranger only: the owner elsewhere signs in", async () => {
      const shared = {
        redisUrl: process.env.REDIS_URL,
        loginAttemptsPerAccountAndAddress: 2,
        loginAttemptsPerAccount: 3,
        loginAttemptsPerAddress: 100,
      };
      const [first, second] = await Promise.all([siblingApp(t, shared), siblingApp(t, shared)]);
      try {
        const owner = await createStaff(t, []);
        const stranger = freshAddress();
        expect((await signIn(first, owner.username, { from: stranger })).statusCode).toBe(401);
        expect((await signIn(second, owner.username, { from: stranger })).statusCode).toBe(401);
        const refused = await signIn(first, owner.username, { from: stranger, password: 'staff-passphrase' });
        expect(refused.statusCode).toBe(429);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
        for (const app of [first, second]) {
          const signedIn = await signIn(app, owner.username, { from: freshAddress(), password: 'staff-passphrase' });
          expect(signedIn.statusCode).toBe(200);
        }
        // The account-wide ceiling (3) still counts the stranger's two and one more from anywhere.
        expect((await signIn(second, owner.username)).statusCode).toBe(401);
        expect((await signIn(first, owner.username, { password: 'staff-passphrase' })).statusCode).toBe(429);
      } finally {
        await Promise.all([first.close(), second.close()]);
      }
    });
  },
);

/** A port that takes connections and never answers, like a Redis that hangs. */
async function silentServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timedSignIn(app: FastifyInstance): Promise<number> {
  const started = performance.now();
  const response = await signIn(app, testAdmin.username, { password: testAdmin.password, from: '127.0.0.1' });
  expect(response.statusCode).toBe(200);
  return performance.now() - started;
}

describe('POST /api/auth/login when Redis cannot be reached: sign-in goes on unthrottled', () => {
  const unreachable = [
    {
      name: 'nothing listening',
      start: async () => ({ url: `redis://127.0.0.1:${await freePort()}`, stop: async () => {} }),
    },
    { name: 'a server that never answers', start: silentServer },
  ];

  it.each(unreachable)('$name: no 429, and each answer as quick as without Redis', async ({ name, start }) => {
    const redis = await start();
    const app = await siblingApp(t, {
      redisUrl: redis.url,
      loginAttemptsPerAccount: limit,
      loginAttemptsPerAddress: limit,
    });
    try {
      const username = freshName();
      for (let i = 0; i < limit + 2; i++)
        expect((await signIn(app, username, { from: '127.0.0.1' })).statusCode).toBe(401);

      // Interleaved with the same sign-in on the app without Redis, so both see the same machine load.
      const down: number[] = [];
      const baseline: number[] = [];
      for (let i = 0; i < 7; i++) {
        baseline.push(await timedSignIn(t.app));
        down.push(await timedSignIn(app));
      }
      console.log(
        `[figure] redis down (${name}): sign-in median ${median(down).toFixed(0)} ms, max ${Math.max(...down).toFixed(0)} ms; without Redis ${median(baseline).toFixed(0)} ms`,
      );
      // A check that waited for Redis would add its 500 ms command timeout (or 2 s connect timeout) to each sign-in.
      expect(median(down) - median(baseline)).toBeLessThan(250);
    } finally {
      await app.close();
      await redis.stop();
    }
  });
});
