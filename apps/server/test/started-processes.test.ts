import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { killRecordedProcesses, stopStartedProcesses, trackProcess } from '../../../e2e/helpers/started-processes.ts';
import { waitUntil } from './helpers/wait-until.ts';

/**
 * docs/decisions/test-time-factor.md, "A failed test still stops what it started": a loaded CI
 * run left a portal running 70 minutes after the test that started it had timed out.
 */

/** Running, not a zombie waiting to be reaped (a container's first process may never reap it). */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** A tracked process (as startPortal starts one) that has started a process of its own: both pids. */
async function startFamily() {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const grandchild = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
       console.log(grandchild.pid);
       setInterval(() => {}, 1000);`,
    ],
    { detached: true, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  trackProcess(child);
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  return { child, pid: child.pid!, grandchild: Number(line) };
}

const gone = (pids: number[], what: string) =>
  waitUntil(() => pids.every((pid) => !isAlive(pid)), what, { timeoutMs: 10_000, everyMs: 20 });

const pidFolder = process.env.PORTAL_TEST_PIDS;
afterEach(() => {
  process.env.PORTAL_TEST_PIDS = pidFolder;
});

describe('the processes a test starts', () => {
  it('are stopped with what they started by stopStartedProcesses (an afterAll after a failed test)', async () => {
    const family = await startFamily();
    expect(isAlive(family.pid) && isAlive(family.grandchild)).toBe(true);
    await stopStartedProcesses();
    await gone([family.pid, family.grandchild], 'the process and its child to be gone');
  });

  it('left running (their worker killed), are killed by the global teardown, and no other process is', async () => {
    // A folder of this test's own: the run's folder holds other files' processes.
    const folder = await mkdtemp(path.join(os.tmpdir(), 'portal-test-pids-test-'));
    process.env.PORTAL_TEST_PIDS = folder;
    try {
      const family = await startFamily();
      // A pid recorded earlier and since given to another process (here, this one): other start time.
      writeFileSync(path.join(folder, String(process.pid)), '1');
      expect(killRecordedProcesses()).toEqual([family.pid]);
      await gone([family.pid, family.grandchild], 'the process and its child to be gone');
      expect(isAlive(process.pid)).toBe(true);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
