/**
 * Where a CI run's CPU goes: every process on the machine sampled from /proc each second,
 * its CPU time kept by what it runs (Chromium, PostgreSQL, the tests' portals, vitest's
 * workers, ESLint, …), until the command given ends; then a table of CPU-s by kind, beside
 * the run's wall time and the machine's busy time (/proc/stat).
 *   node --import tsx bench/ci-cpu.ts -- bash .ci/run        (in a fresh clone, CI=true)
 *   node --import tsx bench/ci-cpu.ts --pid 1234              (a run already going, until that process ends)
 * A process that lives less than a second between two samples is missed (a `psql`, a short
 * `node -e`): the table's sum stays below the machine's busy time by about that much.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fixed, printTable } from './lib/measure.ts';

const ticksPerSecond = 100;

/** What a process runs, from its command line, in the words of the table. */
function kindOf(commandLine: string): string {
  const has = (text: string) => commandLine.includes(text);
  if (has('chrom')) return 'Chromium (browser tests)';
  if (commandLine.startsWith('postgres')) return 'PostgreSQL';
  if (has('redis-server')) return 'Redis';
  if (has('/vitest/') && (has('forks') || has('workers'))) return 'vitest workers (tests, PGlite in them)';
  if (has('vitest')) return 'vitest main processes';
  if (has('dist/main.js') || has('src/main.ts')) return 'portals the tests start';
  if (has('dist/backup') || has('dist/restore') || has('pg_dump') || has('pg_restore'))
    return 'backup and restore runs';
  if (has('eslint')) return 'ESLint';
  if (has('knip')) return 'knip';
  if (has('tsc') || has('typescript')) return 'typecheck';
  if (has('vite') || has('esbuild') || has('rolldown')) return 'builds (web, server)';
  if (has('nginx')) return 'nginx';
  if (has('npm ci') || has('npm-cli') || commandLine.startsWith('npm')) return 'npm';
  if (has('node')) return 'other Node processes';
  return 'other';
}

/** Each process seen: what it runs, its CPU ticks at the last sample and when counting began. */
type Seen = Map<number, { kind: string; ticks: number; startTicks: number }>;

function sample(seen: Seen) {
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]);
      const known = seen.get(pid);
      if (known) known.ticks = Math.max(known.ticks, ticks);
      else {
        const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
        seen.set(pid, { kind: kindOf(commandLine), ticks, startTicks: 0 });
      }
    } catch {
      // gone between the listing and the read
    }
  }
}

function machineBusyTicks() {
  const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .map(Number);
  return user! + nice! + system! + irq! + softirq! + steal!;
}

const args = process.argv.slice(2);
const pidIndex = args.indexOf('--pid');
const commandIndex = args.indexOf('--');
if (commandIndex < 0 && pidIndex < 0) {
  console.error('usage: node --import tsx bench/ci-cpu.ts -- <command> [args] | --pid <pid>');
  process.exit(2);
}
const started = Date.now();
const busyBefore = machineBusyTicks();
const seen: Seen = new Map();
sample(seen);
// Processes running before the command: counted from now on only.
for (const running of seen.values()) running.startTicks = running.ticks;
const ended =
  commandIndex >= 0
    ? new Promise<number>((resolve) => {
        const child = spawn(args[commandIndex + 1]!, args.slice(commandIndex + 2), { stdio: 'inherit' });
        child.on('exit', (code) => resolve(code ?? 1));
      })
    : new Promise<number>((resolve) => {
        const pid = Number(args[pidIndex + 1]);
        const timer = setInterval(() => {
          try {
            process.kill(pid, 0);
          } catch {
            clearInterval(timer);
            resolve(0);
          }
        }, 1000);
      });
const timer = setInterval(() => sample(seen), 1000);
const code = await ended;
clearInterval(timer);
sample(seen);
const byKind = new Map<string, number>();
for (const { kind, ticks, startTicks } of seen.values())
  byKind.set(kind, (byKind.get(kind) ?? 0) + (ticks - startTicks) / ticksPerSecond);
const wall = (Date.now() - started) / 1000;
const busy = (machineBusyTicks() - busyBefore) / ticksPerSecond;
const counted = [...byKind.values()].reduce((sum, value) => sum + value, 0);
printTable(
  `CPU by what runs: ${fixed(wall, 0)} s wall, the machine busy ${fixed(busy, 0)} CPU-s (${fixed(busy / wall, 2)} cores), ${fixed(counted, 0)} CPU-s counted by process`,
  [...byKind]
    .sort((a, b) => b[1] - a[1])
    .map(([kind, seconds]) => ({
      what: kind,
      'CPU-s': fixed(seconds, 0),
      share: `${fixed((100 * seconds) / counted, 1)}%`,
    })),
);
process.exitCode = code;
