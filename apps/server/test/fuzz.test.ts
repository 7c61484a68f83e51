import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedParts, fingerprint, watchRowWrites } from './fuzz/fingerprint.ts';
import { hasStackTrace, RouteFuzzer, routesToFuzz } from './fuzz/fuzz-routes.ts';
import { createFixture, type Fixture } from './fuzz/route-examples.ts';
import { formData, makeImage } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * docs/quality.md, Input: property-based fuzzing of every route's params, query and body, sent
 * as the administrator, a doctor or no one. `npm test` makes 100 runs per route with a
 * fixed seed; `npm run fuzz` makes 10,000 with a random seed. Replay a failure with
 * FUZZ_SEED (and FUZZ_ROUTE="PUT /api/user/edit/:id", FUZZ_PATH from the report).
 */
const runs = Number(process.env.FUZZ_RUNS ?? 100);
const seed = Number(process.env.FUZZ_SEED ?? 20261122);
const onlyRoute = process.env.FUZZ_ROUTE;
const replayPath = process.env.FUZZ_PATH;
/** About 9 ms a request over some 70 routes on PGlite on a 2-core machine; four times that. */
const timeout = 60_000 + runs * 70 * 36;

let t: TestApp;
let fixture: Fixture;

beforeAll(async () => {
  t = await createTestApp();
  fixture = await createFixture(t);
  await watchRowWrites(t);
});
afterAll(() => t?.close());

describe('fuzzing every route (fast-check)', () => {
  it('the stack trace detector knows one when it sees one', () => {
    expect(hasStackTrace(new Error('boom').stack!)).toBe(true);
    expect(hasStackTrace(JSON.stringify({ message: 'Role not found', fieldErrors: { at: 'x' } }))).toBe(false);
  });

  it('the write detector sees committed rows and stored files, and not a refused insert', async () => {
    const admin = await t.adminToken();
    const role = { roleName: 'Detector check', description: '' };
    const start = await fingerprint(t);
    expect((await t.as(admin, { method: 'POST', url: '/api/role/add', payload: role })).statusCode).toBe(200);
    const added = await fingerprint(t);
    expect(changedParts(start, added)).toEqual(['roles']);
    // Refused by the unique constraint: the insert is rolled back and counts nothing.
    expect((await t.as(admin, { method: 'POST', url: '/api/role/add', payload: role })).statusCode).toBe(409);
    expect(changedParts(added, await fingerprint(t))).toEqual([]);
    const picture = { data: await makeImage(), name: 'face.png', type: 'image/png' };
    const user = formData(
      {
        username: 'detector',
        firstname: 'De',
        lastname: 'Tector',
        password: 'detector-pass',
        email: 'detector@lab.test',
        mobileNo: '5550103',
        roleId: fixture.staff.roleId,
      },
      { profilePic: picture },
    );
    const before = await fingerprint(t);
    expect((await t.as(admin, { method: 'POST', url: '/api/user/add', payload: user })).statusCode).toBe(200);
    expect(changedParts(before, await fingerprint(t)).sort()).toEqual(['files', 'users']);
  });

  it(
    `${runs} runs per route: never a 5xx, no stack trace, a refused request changes no row or file`,
    async () => {
      const { routes, missing } = routesToFuzz(t, fixture);
      expect(missing).toEqual([]);
      const chosen = onlyRoute ? routes.filter((route) => route.key === onlyRoute) : routes;
      expect(chosen.length).toBeGreaterThan(0);
      const fuzzer = new RouteFuzzer(t, fixture);
      const failures: string[] = [];
      const started = performance.now();
      for (const route of chosen) {
        try {
          await fuzzer.fuzz(route, { runs, seed, path: replayPath });
        } catch (error) {
          failures.push(`${route.key} (seed ${seed}):\n${(error as Error).message}`);
        }
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const { stats } = fuzzer;
      console.log(
        `[figure] fuzz: ${runs * chosen.length} runs over ${chosen.length} routes (seed ${seed}), ` +
          `${stats.serverErrors} answers >= 500, ${stats.stackTraces} stack traces, ` +
          `${stats.refusedWrites} rows changed by a refused request`,
      );
      console.log(
        `[figure] fuzz answers: ${JSON.stringify(stats.statuses)} in ${stats.requests} requests, ` +
          `${stats.malformedRefusals} refusals without { message }, ${seconds} s`,
      );
      expect(failures).toEqual([]);
    },
    timeout,
  );
});
