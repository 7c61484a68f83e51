import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { mkdtemp, open, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { compiledServer, freePort, startCommand } from '../../../e2e/helpers/portal-process.ts';
import { portalEnv, seededDatabase } from './helpers/portal-process-api.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

// The bound of its slowest test (the others need less), times the run's factor (e2e/helpers/test-time.ts).
vi.setConfig({ testTimeout: scaled(180_000) });

const root = path.resolve(import.meta.dirname, '../../..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const shutdownSeconds = 2;

const isRunning = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/** The compiled portal (`npm start`'s command) on a copy of the seeded database, with the given stdout and stderr. */
async function startPortal(stdio: StdioOptions) {
  await compiledServer();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-output-'));
  const database = await seededDatabase(dataDir, 'portal_output');
  const port = await freePort();
  const child = spawn(process.execPath, [...startCommand.nodeFlags, startCommand.entry], {
    cwd: root,
    detached: true,
    stdio,
    env: {
      ...process.env,
      ...portalEnv(dataDir, database.url),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT: String(shutdownSeconds),
      SMTP_URL: '',
      S3_BUCKET: '',
      REDIS_URL: '',
    },
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = (pathname: string) => `http://127.0.0.1:${port}${pathname}`;
  for (;;) {
    if (!isRunning(child)) throw new Error(`portal exited with ${child.exitCode}`);
    if (
      await fetch(url('/api/ready')).then(
        (response) => response.ok,
        () => false,
      )
    )
      break;
    await sleep(200);
  }
  const stop = async () => {
    if (isRunning(child)) process.kill(-child.pid!, 'SIGKILL');
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  };
  return { child, url, exited, stop };
}

/** Sends SIGTERM and waits (30 s at most) for the exit: its code and how long it took, or null when still running. */
async function terminate(portal: Awaited<ReturnType<typeof startPortal>>, afterSignal = async () => {}) {
  const signalled = Date.now();
  process.kill(portal.child.pid!, 'SIGTERM');
  await afterSignal();
  const code = await Promise.race([portal.exited, sleep(30_000).then(() => 'running' as const)]);
  return { code, elapsed: Date.now() - signalled };
}

/** 1,000 requests to a missing path of 4,000 characters: about 8 MB of log lines (the path is logged). */
async function logALot(url: (pathname: string) => string) {
  const missing = `/api/missing-${'x'.repeat(4000)}`;
  for (let round = 0; round < 40; round++) {
    const answers = await Promise.all(Array.from({ length: 25 }, () => fetch(url(missing))));
    for (const answer of answers) expect(answer.status).toBe(404);
  }
}

describe('SIGTERM ends the process whatever its output is doing (issue 26)', () => {
  const started: { stop(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const portal of started) await portal.stop();
  });

  it('stdout a socket nobody reads, log lines queued behind it, then the reader gone: exits within SHUTDOWN_TIMEOUT + 1 s', async () => {
    const portal = await startPortal(['ignore', 'pipe', 'pipe']);
    started.push(portal);
    // The reader stops reading: the socket's buffer fills and the portal's lines queue up.
    portal.child.stdout!.pause();
    portal.child.stderr!.resume();
    await logALot(portal.url);
    // Still serving while its output is blocked: no write waits on the reader.
    expect((await fetch(portal.url('/api/health'))).status).toBe(200);
    const { code, elapsed } = await terminate(portal, async () => {
      await sleep(300);
      // The reader goes away with the shutdown's own lines still queued.
      portal.child.stdout!.destroy();
    });
    console.log(
      `[figure] blocked, then vanished stdout: exited ${code} after ${elapsed} ms (SHUTDOWN_TIMEOUT ${shutdownSeconds} s)`,
    );
    expect(code).not.toBe('running');
    // The deadline plus a second, and room for a loaded machine to start the exit.
    expect(elapsed).toBeLessThan((shutdownSeconds + 1) * 1000 + 8000);
  });

  it('stdout a full disk (/dev/full): serves, then exits on SIGTERM', { timeout: scaled(180_000) }, async () => {
    const full = await open('/dev/full', 'w');
    try {
      const portal = await startPortal(['ignore', full.fd, 'ignore']);
      started.push(portal);
      await logALot(portal.url);
      expect((await fetch(portal.url('/api/health'))).status).toBe(200);
      const { code } = await terminate(portal);
      expect(code).not.toBe('running');
    } finally {
      await full.close();
    }
  });
});
