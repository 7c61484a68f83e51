import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startPortal, type PortalProcess } from '../../../e2e/helpers/portal-process.ts';
import { portalEnv, seededDatabase } from './helpers/portal-process-api.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';
import { stopStartedProcesses } from '../../../e2e/helpers/started-processes.ts';

// The bound of its slowest test (the others need less), times the run's factor (e2e/helpers/test-time.ts).
vi.setConfig({ testTimeout: scaled(180_000) });

/**
 * Issue 20, findings 1 and 2, against the real portal (`node dist/main.js`, the start
 * script's flags) on loopback: anonymous clients sending huge forms, or holding connections
 * with bodies that trickle in. Each attack is bounded in count and time.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mebibyte = 1024 * 1024;

/** The process's resident memory now, from /proc (Linux). */
async function residentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)![1]) * 1024;
}

let dataDir: string;
let dropDatabase = async () => {};
let portal: PortalProcess;
let port: number;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-hostile-'));
  const database = await seededDatabase(dataDir, 'portal_hostile');
  dropDatabase = database.drop;
  portal = await startPortal(portalEnv(dataDir, database.url), { quiet: true });
  port = Number(new URL(portal.baseUrl).port);
}, scaled(300_000));

afterAll(async () => {
  await portal?.stop();
  // Also what a failed or timed-out test was still starting (e2e/helpers/started-processes.ts).
  await stopStartedProcesses();
  await dropDatabase();
  await rm(dataDir, { recursive: true, force: true });
});

/**
 * The registration form as the report sent it: 200 text fields of 1 MiB each, written as
 * fast as the server reads them until it answers. `declared` sends a Content-Length (the
 * server may refuse it unread); otherwise the body is chunked and only what the server
 * reads can stop it. Resolves with the status, or 0 when the connection closed unanswered.
 */
function hugeRegistration(declared: boolean, stop: AbortSignal): Promise<number> {
  const boundary = `----attack${randomBytes(8).toString('hex')}`;
  const value = Buffer.alloc(mebibyte, 'a');
  const fieldHead = (n: number) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="field${n}"\r\n\r\n`);
  const fieldCount = 200;
  const closing = Buffer.from(`--${boundary}--\r\n`);
  const length = Array.from({ length: fieldCount }, (_, n) => fieldHead(n).length + value.length + 2).reduce(
    (sum, bytes) => sum + bytes,
    closing.length,
  );
  return new Promise((resolve) => {
    let status = 0;
    let isDone = false;
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/doctor/add',
      agent: false,
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        ...(declared ? { 'content-length': length } : { 'transfer-encoding': 'chunked' }),
      },
    });
    const finish = () => {
      if (isDone) return;
      isDone = true;
      request.destroy();
      resolve(status);
    };
    request.on('response', (response) => {
      status = response.statusCode!;
      response.resume();
      finish();
    });
    request.on('error', finish);
    request.on('close', finish);
    stop.addEventListener('abort', finish);
    void (async () => {
      for (let n = 0; n < fieldCount && !isDone; n++) {
        for (const piece of [fieldHead(n), value, Buffer.from('\r\n')]) {
          if (isDone) return;
          if (!request.write(piece)) await new Promise((drained) => request.once('drain', drained));
        }
      }
      if (!isDone) request.end(closing);
    })();
  });
}

describe('finding 1: huge registration forms from anyone', () => {
  it('24 registration forms of 200 fields of 1 MiB at once: each refused with 413, the portal grows by under 300 MB', async () => {
    const pid = portal.child.pid!;
    const before = await residentBytes(pid);
    // Growth, not the total: PGlite alone keeps some 500 MB resident in the process.
    const limit = before + 300 * mebibyte;
    let peak = before;
    // Past the limit the attack is stopped: the test has failed, and the machine is shared.
    const stop = new AbortController();
    let isSampling = true;
    const sampling = (async () => {
      while (isSampling) {
        peak = Math.max(peak, await residentBytes(pid).catch(() => 0));
        if (peak > limit) stop.abort();
        await sleep(50);
      }
    })();
    const started = Date.now();
    const statuses = await Promise.all(
      Array.from({ length: 24 }, (_, n) => hugeRegistration(n % 2 === 0, stop.signal)),
    );
    isSampling = false;
    await sampling;
    console.log(
      `[figure] 24 forms of 200 x 1 MiB fields: answered in ${Date.now() - started} ms, RSS ${Math.round(before / mebibyte)} MB before, peak ${Math.round(peak / mebibyte)} MB`,
    );
    expect(peak).toBeLessThan(limit);
    // Refused, never taken, and every client reads its 413: the portal reads and throws away
    // what a client still writes after the answer (plugins/lingering-close.ts), where closing
    // at once used to reset a client still writing before it read the answer (issue 40, item 5).
    expect(statuses, String(statuses)).toEqual(statuses.map(() => 413));
    expect((await portal.api('GET', '/health')).status).toBe(200);
  });
});

/**
 * A client that holds a connection the way the report's did: sign-in bodies declaring
 * 1,000 bytes and sending one byte every 2 s, or (`isHeadOnly`) a request head that never
 * ends. Resolves once the server has closed it, or on `stop`.
 */
async function slowClient(from: string, isHeadOnly: boolean, stop: AbortSignal): Promise<void> {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  stop.addEventListener('abort', () => socket.destroy());
  socket.once('connect', () => {
    const head = 'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n';
    socket.write(isHeadOnly ? head : `${head}Content-Length: 1000\r\n\r\n{`);
    const timer = setInterval(() => socket.write('x'), 2000);
    socket.once('close', () => clearInterval(timer));
  });
  return closed;
}

/** GET /api/health on a new connection each time (a load balancer's probe): milliseconds, or Infinity past `budgetMs`. */
function healthCheck(budgetMs: number): Promise<number> {
  const started = Date.now();
  return new Promise((resolve) => {
    const request = http.get(
      { host: '127.0.0.1', port, path: '/api/health', agent: false, timeout: budgetMs },
      (response) => {
        response.resume();
        response.once('end', () => resolve(response.statusCode === 200 ? Date.now() - started : Infinity));
      },
    );
    request.once('timeout', () => request.destroy());
    request.once('error', () => resolve(Infinity));
  });
}

describe('finding 2: slow clients from one address', () => {
  it('1,500 slow connections from 127.0.0.2 for 10 s, the portal held to 1,024 open files: health from 127.0.0.1 is answered throughout', async () => {
    // The report's 20,000 open files, scaled down so a bounded attack reaches the limit.
    await promisify(execFile)('prlimit', ['--pid', String(portal.child.pid), '--nofile=1024:1024']);
    const stop = new AbortController();
    // All 1,500 are open within 2 s; each then sends a byte every 2 s.
    const attackSeconds = 10;
    const clients: Promise<void>[] = [];
    const answers: number[] = [];
    const started = Date.now();
    const attack = (async () => {
      for (let n = 0; n < 1500 && !stop.signal.aborted; n++) {
        clients.push(slowClient('127.0.0.2', n % 2 === 1, stop.signal));
        if (n % 100 === 99) await sleep(100);
      }
    })();
    while (Date.now() - started < attackSeconds * 1000) {
      // Unanswered, not slow, is the failure (the old code's probes waited behind files it
      // could not open); the budget is generous so that a loaded machine does not fail it.
      answers.push(await healthCheck(15_000));
      await sleep(250);
    }
    stop.abort();
    await attack;
    await Promise.all(clients);
    const slowest = Math.max(...answers);
    console.log(
      `[figure] ${answers.length} health checks during ${attackSeconds} s of 1,500 slow connections: slowest ${slowest} ms, ${answers.filter((ms) => ms > 1000).length} over 1 s`,
    );
    expect(answers.length).toBeGreaterThanOrEqual(2);
    expect(answers.filter((ms) => ms === Infinity)).toEqual([]);
  });
});
