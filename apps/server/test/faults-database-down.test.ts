import { sql } from 'drizzle-orm';
import { once } from 'node:events';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, testAdmin, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/**
 * A TCP proxy in front of PostgreSQL that a test can cut (every connection dropped, new ones
 * refused), stall (new connections accepted and never answered), hold (nothing forwarded
 * back, so queries wait mid-flight) and restore.
 */
async function startDatabaseProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let state: 'open' | 'stalled' | 'held' = 'open';
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket)).on('error', () => {});
  };
  const server = net.createServer((client) => {
    track(client);
    if (state === 'stalled') return;
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      if (state !== 'held') client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as net.AddressInfo).port;
  const dropAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    port,
    cut() {
      dropAll();
      server.close();
    },
    stall() {
      state = 'stalled';
      dropAll();
    },
    hold() {
      state = 'held';
    },
    /** Every connection reset (TCP RST): the driver sees ECONNRESET, as when the database host drops it. */
    reset() {
      for (const socket of sockets) socket.resetAndDestroy();
    },
    async restore() {
      state = 'open';
      dropAll();
      if (!server.listening) {
        server.listen(port, '127.0.0.1');
        await once(server, 'listening');
      }
    },
    close() {
      dropAll();
      server.close();
    },
  };
}

const databaseUrl = process.env.DATABASE_URL;

describe.runIf(databaseUrl)('database unreachable (PostgreSQL through a TCP proxy the test cuts)', () => {
  let proxy: Awaited<ReturnType<typeof startDatabaseProxy>>;
  let t: TestApp;
  let adminToken: string;
  let unavailableAnswers = 0;
  const logLines: { level: number; msg: string; err?: { code?: string; message?: string } }[] = [];
  /** What the pools' error listeners logged since `from`: at warn, with the driver's error. */
  const lostConnections = (from: number) =>
    logLines.slice(from).filter((line) => line.msg.startsWith('database connection lost'));

  beforeAll(async () => {
    const direct = new URL(databaseUrl!);
    proxy = await startDatabaseProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    t = await createTestApp({
      logger: { level: 'info', stream: { write: (line: string) => logLines.push(JSON.parse(line) as never) } },
      routeDatabaseUrl: (url) => {
        const routed = new URL(url);
        routed.hostname = '127.0.0.1';
        routed.port = String(proxy.port);
        return routed;
      },
    });
    adminToken = await t.adminToken();
  });
  afterAll(async () => {
    console.log(`[figure] database cut: ${unavailableAnswers} requests answered 503, recovered without restart`);
    // Connections through the proxy must end before the test database is dropped.
    await proxy.restore();
    await t?.close();
    proxy?.close();
  });

  const rolesList = () => t.as(adminToken, { method: 'GET', url: '/api/role/get_roles_list' });
  const login = () => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: testAdmin });

  /** 503 with a message for the person and nothing of the driver's error. */
  function expectUnavailable(response: Awaited<ReturnType<typeof rolesList>>) {
    expect(response.statusCode, response.body).toBe(503);
    const body = response.json<Record<string, unknown>>();
    expect(Object.keys(body)).toEqual(['message']);
    expect(body.message).toMatch(/temporarily unavailable/);
    expect(response.body).not.toMatch(/ECONN|terminated|timeout|at .*\.(ts|js)/i);
    unavailableAnswers++;
  }

  async function expectRecovered() {
    await proxy.restore();
    expect((await rolesList()).statusCode).toBe(200);
    expect((await login()).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
  }

  it('answers 503 while connections are refused, keeps /api/health up, and recovers by itself', async () => {
    expect((await rolesList()).statusCode).toBe(200);
    proxy.cut();
    for (let round = 0; round < 3; round++) {
      expectUnavailable(await rolesList());
      expectUnavailable(await login());
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', message: 'Database or storage is unreachable' });
    await expectRecovered();
  });

  it('answers 503 when the connection dies in the middle of a query', async () => {
    proxy.hold();
    const inFlight = Promise.all([rolesList(), login()]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    proxy.cut();
    for (const response of await inFlight) expectUnavailable(response);
    await expectRecovered();
  });

  it('a database connection reset (ECONNRESET) mid-query is still 503, logged at error as "database unavailable"', async () => {
    const before = logLines.length;
    proxy.hold();
    const inFlight = rolesList();
    await new Promise((resolve) => setTimeout(resolve, 300));
    proxy.reset();
    expectUnavailable(await inFlight);
    const logged = logLines.slice(before).filter((line) => line.msg === 'database unavailable');
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.every((line) => line.level === 50)).toBe(true);
    expect(logLines.slice(before).some((line) => line.msg === 'client aborted the request')).toBe(false);
    // The idle connections' resets reach the pool's error listener: logged, not swallowed.
    await vi.waitFor(() => expect(lostConnections(before).length).toBeGreaterThan(0), { timeout: scaled(10_000) });
    for (const line of lostConnections(before)) {
      expect(line.level).toBe(40);
      expect(line.err?.message).toBeTruthy();
    }
    // The reset also reaches the pool's idle connections; one may still be handed out before
    // its error drops it, so the first request after the restore may be one more 503.
    await proxy.restore();
    await vi.waitFor(async () => expect((await rolesList()).statusCode).toBe(200), {
      timeout: scaled(10_000),
      interval: 100,
    });
    expect((await login()).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
  });

  it('survives a connection dying inside a transaction (no uncaught error event), and logs it at warn', async () => {
    const before = logLines.length;
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      await expect(
        t.app.db.transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          proxy.cut();
          await new Promise((resolve) => setTimeout(resolve, 200));
          await tx.execute(sql`select 1`);
        }),
      ).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
    // The checked-out client's own error event, between two queries of the transaction.
    expect(lostConnections(before).some((line) => line.level === 40 && line.err?.message)).toBe(true);
    await expectRecovered();
  });

  it('answers 503 within the connect timeout when the database accepts but never answers', async () => {
    proxy.stall();
    // Let the pool see its idle connections close, so the requests have to connect anew.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    const responses = await Promise.all([rolesList(), login()]);
    for (const response of responses) expectUnavailable(response);
    // The pool's 5 s connect timeout answered them, not a closed socket.
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
    expect(Date.now() - started).toBeLessThan(10_000);
    await expectRecovered();
  });
});
