import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

const redocly = fileURLToPath(new URL('../../../node_modules/.bin/redocly', import.meta.url));

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(path.join(os.tmpdir(), 'portal-openapi-'));
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('GET /api/docs/json', () => {
  it('passes Redocly lint with the recommended rules without an error', async () => {
    const file = path.join(dir, 'openapi.json');
    await writeFile(file, (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).body);
    const run = spawnSync(redocly, ['lint', file, '--extends', 'recommended', '--format', 'json'], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      timeout: 60_000,
      cwd: dir,
    });
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as { problems: LintProblem[] };
    const explain = (problem: LintProblem) =>
      `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`;
    const warnings = report.problems.filter((problem) => problem.severity === 'warn').map(explain);
    console.log(
      `[figure] Redocly lint (recommended): ${report.problems.length - warnings.length} errors, ${warnings.length} warnings`,
    );
    for (const warning of warnings) console.log(`  warning: ${warning}`);
    expect(report.problems.filter((problem) => problem.severity === 'error').map(explain)).toEqual([]);
  });
});
