import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { scaled } from './test-time.ts';

/**
 * The processes the tests start (portals, nginx, s3rver), each spawned `detached` so it leads a
 * process group of its own: stopping it signals the group, so what it started dies with it.
 * A test that fails or times out still stops them: the test files call stopStartedProcesses in
 * their afterAll, a worker that exits kills what is left, and the run's global teardown kills
 * any recorded one still alive (a loaded run once left a portal running 70 minutes on its
 * PostgreSQL database, started by a test that had timed out while it was starting).
 */
const running = new Set<ChildProcess>();

/** The folder where each started process leaves its pid, for the global teardown; set by the global setups. */
const pidFolder = () => process.env.PORTAL_TEST_PIDS;

/** When `pid` started (clock ticks since boot, /proc/<pid>/stat's 22nd field): a pid reused later differs. */
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone already
  }
}

/** Tracks a child spawned with `detached: true` until it exits. */
export function trackProcess(child: ChildProcess): ChildProcess {
  const pid = child.pid;
  if (pid === undefined) return child;
  running.add(child);
  const folder = pidFolder();
  const pidFile = folder && existsSync(folder) ? path.join(folder, String(pid)) : undefined;
  // With its start time, so the teardown never signals a pid the system has given to another process since.
  if (pidFile) writeFileSync(pidFile, startTime(pid) ?? '');
  child.once('exit', () => {
    running.delete(child);
    // Its group may live on (a grandchild): killed with it, then forgotten.
    signalGroup(pid, 'SIGKILL');
    if (pidFile) rmSync(pidFile, { force: true });
  });
  return child;
}

/**
 * Stops `child`'s whole process group: SIGTERM (a portal finishes what it is doing), then
 * SIGKILL if it has not exited within `graceMs`. Resolves when the child has exited.
 */
export async function stopGroup(
  child: ChildProcess,
  { signal = 'SIGTERM', graceMs = 30_000 }: { signal?: NodeJS.Signals; graceMs?: number } = {},
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(child.pid, signal);
  const timer = setTimeout(() => signalGroup(child.pid!, 'SIGKILL'), scaled(graceMs));
  await exited;
  clearTimeout(timer);
}

/** Stops every process this test process started that is still running (an afterAll's safety net). */
export async function stopStartedProcesses(): Promise<void> {
  await Promise.all([...running].map((child) => stopGroup(child)));
}

// A worker that exits (vitest ends it, or it fails) leaves no process of its own behind.
process.once('exit', () => {
  for (const child of running) if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
});

/** For a global setup: the folder the run's started processes leave their pids in (inherited by the workers). */
export function recordStartedProcesses(): void {
  process.env.PORTAL_TEST_PIDS ??= mkdtempSync(path.join(os.tmpdir(), 'portal-test-pids-'));
}

/**
 * For a global teardown: kills the group of every recorded process still running (a worker that
 * was killed could not), and says which, so a leak is seen. Returns their pids.
 */
export function killRecordedProcesses(): number[] {
  const folder = pidFolder();
  if (!folder) return [];
  const killed: number[] = [];
  if (!existsSync(folder)) return [];
  const names = readdirSync(folder);
  for (const name of names) {
    const pid = Number(name);
    const file = path.join(folder, name);
    const recorded = readFileSync(file, 'utf8');
    if (recorded !== '' && startTime(pid) === recorded) {
      signalGroup(pid, 'SIGKILL');
      killed.push(pid);
    }
    unlinkSync(file);
  }
  if (killed.length > 0) console.error(`[teardown] killed test processes left running: ${killed.join(', ')}`);
  return killed;
}

/** Removes the pid folder once the last global teardown has run. */
export function forgetStartedProcesses(): void {
  const folder = pidFolder();
  if (folder) rmSync(folder, { recursive: true, force: true });
}
