/**
 * The loop around a change (issue 21): what running one server test file costs before its
 * first test, and what `npm run typecheck` costs again after one file changed. Beside each, in
 * the same run, the baseline that does the least of the same work: vitest running one file
 * of the contract package (no database, no server), and the first, cold typecheck.
 * Goals: fixed cost of one server file at most 8 s; typecheck after one change at most 20 s.
 *
 *   node --import tsx bench/test-loop.ts        (BENCH_LOOP_RUNS=3 by default; run it quiet)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fixed, median, printTable } from './lib/measure.ts';

const root = path.resolve(import.meta.dirname, '..');
const runs = Number(process.env.BENCH_LOOP_RUNS ?? 3);
const npx = path.join(root, 'node_modules/.bin');

interface VitestReport {
  testResults: { assertionResults: { duration?: number }[] }[];
}

/** One `npx vitest run` of `file`: wall seconds, and the seconds its tests themselves took. */
function vitestRun(project: string, file: string): { wall: number; tests: number } {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-loop-'));
  const report = path.join(folder, 'report.json');
  try {
    const started = performance.now();
    const result = spawnSync(
      path.join(npx, 'vitest'),
      ['run', '--project', project, file, '--reporter=json', `--outputFile=${report}`],
      { cwd: root, stdio: 'ignore', env: { ...process.env, PATH: `${npx}:${process.env.PATH}` } },
    );
    const wall = (performance.now() - started) / 1000;
    if (result.status !== 0) throw new Error(`vitest run --project ${project} ${file} failed`);
    const { testResults } = JSON.parse(readFileSync(report, 'utf8')) as VitestReport;
    const tests = testResults
      .flatMap((file) => file.assertionResults)
      .reduce((sum, test) => sum + (test.duration ?? 0) / 1000, 0);
    return { wall, tests };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function fixedCostRows() {
  const measure = (project: string, file: string) => {
    // The first run fills vitest's module cache and the test template, as any first run on a
    // fresh clone does once; the figures are the runs after it.
    vitestRun(project, file);
    const samples = Array.from({ length: runs }, () => vitestRun(project, file));
    const wall = median(samples.map((sample) => sample.wall));
    const tests = median(samples.map((sample) => sample.tests));
    return { wall, tests, fixedCost: wall - tests };
  };
  const server = measure('server', 'test/roles.test.ts');
  const baseline = measure('contract', 'test/case-form.test.ts');
  return [
    {
      run: 'npx vitest run --project server test/roles.test.ts',
      'wall s': fixed(server.wall),
      'its tests s': fixed(server.tests),
      'fixed cost s': fixed(server.fixedCost),
    },
    {
      run: 'baseline: npx vitest run --project contract test/case-form.test.ts',
      'wall s': fixed(baseline.wall),
      'its tests s': fixed(baseline.tests),
      'fixed cost s': fixed(baseline.fixedCost),
    },
  ];
}

function typecheckSeconds(): number {
  const started = performance.now();
  execFileSync('npm', ['run', 'typecheck'], { cwd: root, stdio: 'ignore' });
  return (performance.now() - started) / 1000;
}

/** Cold, then again with nothing changed, then after a change to one server file's exports. */
function typecheckRows() {
  for (const project of ['.', 'packages/contract', 'apps/server', 'apps/web', 'e2e'])
    rmSync(path.join(root, project, 'node_modules/.cache/tsc'), { recursive: true, force: true });
  const cold = typecheckSeconds();
  const unchanged = typecheckSeconds();
  const changedFile = path.join(root, 'apps/server/src/lib/nul-text.ts');
  const original = readFileSync(changedFile, 'utf8');
  let changed: number;
  try {
    writeFileSync(changedFile, `${original}\nexport const benchTouch = ${Date.now()};\n`);
    changed = typecheckSeconds();
  } finally {
    writeFileSync(changedFile, original);
  }
  typecheckSeconds();
  return [
    { run: 'npm run typecheck, cold (baseline)', s: fixed(cold) },
    { run: 'again, nothing changed', s: fixed(unchanged) },
    { run: 'again, an export added to apps/server/src/lib/nul-text.ts', s: fixed(changed) },
  ];
}

console.log(`Test loop, ${new Date().toISOString()}, ${os.cpus().length} cores, median of ${runs} runs`);
printTable('One server test file (goal: fixed cost at most 8 s)', fixedCostRows());
printTable('Typecheck (goal: at most 20 s after one change)', typecheckRows());
