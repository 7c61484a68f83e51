import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { endpoints } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

const redocly = fileURLToPath(new URL('../../../node_modules/.bin/redocly', import.meta.url));

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

/**
 * The warnings allowed, each only where it cannot be met
 * (docs/decisions/api.md § OpenAPI document): "an operation must have a 4XX response" on
 * public endpoints that take no input (health, readiness, the country list), which have no
 * 4xx answer to document; and
 * "ambiguous paths" between the spec's literal paths (`/api/case/status/{caseId}`) and the
 * case page's `/api/case/{caseId}/...`, which the router resolves by the literal segment
 * first, and a case id is a number.
 */
const withoutFourXx = new Set(
  Object.values(endpoints)
    .filter((row) => row.access === 'public' && !('params' in row) && !('query' in row) && !('body' in row))
    .map(
      (row) =>
        `operation-4xx-response at #/paths/${row.path.replaceAll('/', '~1')}/${row.method.toLowerCase()}/responses`,
    ),
);

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
  it('passes Redocly lint with the recommended rules: no error, and no warning but the explained ones', async () => {
    const file = path.join(dir, 'openapi.json');
    await writeFile(file, (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).body);
    const run = spawnSync(redocly, ['lint', file, '--extends', 'recommended', '--format', 'json'], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      timeout: scaled(60_000),
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
    const unexplained = report.problems
      .filter((problem) => problem.ruleId !== 'no-ambiguous-paths')
      .filter((problem) => !withoutFourXx.has(`${problem.ruleId} at ${problem.location[0]?.pointer}`))
      .map(explain);
    expect(unexplained).toEqual([]);
  });
});
