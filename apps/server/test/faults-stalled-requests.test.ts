import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledServer, freePort, startCommand } from '../../../e2e/helpers/portal-process.ts';
import { seededDatabase } from './helpers/portal-process-api.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A connection that sent a sign-in's head and 3 bytes of its 100-byte body, then nothing. */
async function stalledSignIn(port: number): Promise<{ socket: net.Socket; closed: Promise<number> }> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  const opened = Date.now();
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - opened)));
  socket.write(
    'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"u',
  );
  return { socket, closed };
}

describe('BODY_STALL_TIMEOUT: a body that makes no progress has its connection closed', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({ bodyStallTimeoutSeconds: 1 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => t?.close());

  it('a sign-in body stalled after 3 bytes is closed after the (1 s) stall timeout, not left open', async () => {
    const stalled = await Promise.all(Array.from({ length: 20 }, () => stalledSignIn(port)));
    const closedAfter = await Promise.all(stalled.map((connection) => connection.closed));
    console.log(
      `[figure] 20 stalled bodies closed after ${Math.min(...closedAfter)}-${Math.max(...closedAfter)} ms (stall timeout 1 s)`,
    );
    for (const ms of closedAfter) {
      expect(ms).toBeGreaterThanOrEqual(900);
      expect(ms).toBeLessThan(5000);
    }
  });

  it('a slow body that keeps moving (a piece every 300 ms for over 3 s) is read to the end and answered', async () => {
    const body = JSON.stringify({ username: 'nobody-here', password: 'wrong-password' }).padEnd(120, ' ');
    const pieces = body.match(/.{1,10}/gs)!;
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    const started = Date.now();
    for (const piece of pieces) {
      await sleep(300);
      socket.write(piece);
    }
    await closed;
    expect(Date.now() - started).toBeGreaterThan(3000);
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
  });
});

/** Every process of the group is gone (kill -0 of the group fails with ESRCH). */
function groupIsGone(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

interface Started {
  child: ChildProcess;
  port: number;
  /** Resolves once the server's log shows a line matching the pattern. */
  logged: (pattern: RegExp) => Promise<void>;
}

/** The portal as a supervisor starts it: its own process group, its output read through pipes. */
async function startGroup(command: string, args: string[], env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  // Without vitest's NODE_ENV=test: `npm start` rebuilds apps/web/dist, which the other tests
  // and the browser tests' portal serve, and under NODE_ENV=test Vite would write other files
  // (other hashes) than `npm run build` did.
  const { NODE_ENV: _testMode, ...parentEnv } = process.env;
  const child = spawn(command, args, {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...parentEnv,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'info',
      SMTP_URL: '',
      S3_BUCKET: '',
      REDIS_URL: '',
      DATABASE_URL: '',
    },
  });
  // Read, as a supervisor's log collector does, until it goes away.
  let output = '';
  const waiting = new Set<{ pattern: RegExp; resolve: () => void }>();
  const read = (chunk: Buffer) => {
    output += chunk.toString();
    for (const waiter of waiting) {
      if (!waiter.pattern.test(output)) continue;
      waiting.delete(waiter);
      waiter.resolve();
    }
  };
  child.stdout!.on('data', read);
  child.stderr!.on('data', read);
  const logged = (pattern: RegExp) =>
    new Promise<void>((resolve) => {
      if (pattern.test(output)) resolve();
      else waiting.add({ pattern, resolve });
    });
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`portal exited with ${child.exitCode}`);
    if (Date.now() - started > 240_000) throw new Error('portal did not become ready');
    if (
      await fetch(`http://127.0.0.1:${port}/api/ready`).then(
        (response) => response.ok,
        () => false,
      )
    )
      break;
    await sleep(300);
  }
  return { child, port, logged };
}

// The processes run on a PGlite of their own (DATABASE_URL '' below) in either pass, so CI's
// PostgreSQL pass would only repeat the PGlite pass's minute of starts.
describe.skipIf(process.env.DATABASE_URL)(
  'SHUTDOWN_TIMEOUT: SIGTERM ends the process group within the deadline whatever is in flight',
  () => {
    const shutdownSeconds = 3;
    let dataDir: string;
    let env: Record<string, string>;
    const groups: number[] = [];
    beforeAll(async () => {
      await compiledServer();
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-shutdown-'));
      // The tests' seeded database, not a first start's own seeding of the world's cities.
      await seededDatabase(dataDir, 'portal_shutdown');
      env = {
        DATA_DIR: dataDir,
        // `npm start` builds the web app first: into this run's own folder, never over the
        // apps/web/dist that the other tests and the browser tests' portal are serving.
        WEB_DIST: path.join(dataDir, 'web'),
        JWT_SECRET: randomBytes(32).toString('hex'),
        SHUTDOWN_TIMEOUT: String(shutdownSeconds),
        // Longer than the test: only the shutdown deadline can end the stalled request.
        BODY_STALL_TIMEOUT: '10m',
      };
    });
    afterAll(async () => {
      for (const pid of groups) if (!groupIsGone(pid)) process.kill(-pid, 'SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    });

    // The process alone, and as the README starts it: `npm start` builds the web app, then runs
    // `npm run start -w @portal/server` (npm under npm, each to pass the signal on).
    const starts: [string, string, string[]][] = [
      ['node dist/main.js', process.execPath, [...startCommand.nodeFlags, startCommand.entry]],
      ['npm start', 'npm', ['start']],
    ];

    it.each(starts)(
      '%s, a stalled request in flight, the reader of its output gone: the whole group exits at the deadline',
      async (_name, command, args) => {
        const { child, port, logged } = await startGroup(command, args, env);
        groups.push(child.pid!);
        const stalled = await stalledSignIn(port);
        // Until the server has read the request's head, the connection counts as idle and
        // closes at once on SIGTERM; the signal must find the request in flight.
        await logged(
          /"msg":"incoming request".*"url":"\/api\/auth\/login"|"url":"\/api\/auth\/login".*"msg":"incoming request"/,
        );
        // The log collector goes away, then the supervisor signals the group.
        child.stdout!.destroy();
        child.stderr!.destroy();
        const signalled = Date.now();
        process.kill(-child.pid!, 'SIGTERM');
        while (!groupIsGone(child.pid!) && Date.now() - signalled < 30_000) await sleep(100);
        const elapsed = Date.now() - signalled;
        console.log(
          `[figure] ${_name}: group gone ${elapsed} ms after SIGTERM (SHUTDOWN_TIMEOUT ${shutdownSeconds} s)`,
        );
        expect(groupIsGone(child.pid!)).toBe(true);
        // The stalled request held the shutdown until the deadline, and no longer.
        expect(elapsed).toBeGreaterThanOrEqual(shutdownSeconds * 1000 - 500);
        // npm exits a moment after its child (1-2 s here on a loaded machine).
        expect(elapsed).toBeLessThan((shutdownSeconds + (command === process.execPath ? 4 : 6)) * 1000);
        await stalled.closed;
      },
      300_000,
    );
  },
);
