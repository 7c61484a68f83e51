import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '@portal/contract';
import { changedParts, fingerprint, watchRowWrites } from './fuzz/fingerprint.ts';
import { hasStackTrace, RouteFuzzer, routesToFuzz, type FuzzBudget } from './fuzz/fuzz-routes.ts';
import { otherDoctor, type OtherDoctor } from './fuzz/isolation.ts';
import { createFixture, existingIds, type Fixture } from './fuzz/route-examples.ts';
import { formData, makeImage } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/**
 * docs/quality/input.md, Fuzzing: property-based fuzzing of every route's params, query and body, sent
 * as the administrator, a doctor, a doctor's assistant or no one, and then as one doctor (and
 * as their assistant) with another doctor's records in the params and bodies. `npm test` fuzzes each route for a time budget
 * (FUZZ_SECONDS_PER_ROUTE, 0.1 s; the doctor-against-doctor pass half of it), so a loaded
 * machine makes fewer runs rather than failing on a timeout; `npm run fuzz` makes 10,000
 * runs per route (FUZZ_RUNS). Each run takes a new random seed, printed first, so every CI
 * run explores new inputs. Replay a failure with FUZZ_SEED and FUZZ_PATH from the report
 * (and FUZZ_ROUTE="PUT /api/user/edit/:id").
 */
const countedRuns = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : undefined;
const secondsPerRoute = Number(process.env.FUZZ_SECONDS_PER_ROUTE ?? 0.1);
const budget: FuzzBudget = countedRuns ? { runs: countedRuns } : { ms: secondsPerRoute * 1000 };
/** Each doctor-against-doctor pass (as the doctor, as their assistant) sends as one actor: half the runs or the time. */
const isolationBudget: FuzzBudget =
  'runs' in budget ? { runs: Math.max(1, Math.ceil(budget.runs / 2)) } : { ms: budget.ms / 2 };
const seed = Number(process.env.FUZZ_SEED ?? randomInt(2 ** 31 - 1));
const perRoute = 'runs' in budget ? `${budget.runs} runs` : `${secondsPerRoute} s`;
console.log(
  `[fuzz] seed ${seed}, ${perRoute} per route (replay: FUZZ_SEED=${seed} FUZZ_PATH=<path from the report> ` +
    `npx vitest run --project server apps/server/test/fuzz.test.ts)`,
);
const onlyRoute = process.env.FUZZ_ROUTE;
const replayPath = process.env.FUZZ_PATH;
/** Routes registered, HEADs included, with room to spare: only a request that never answers reaches this. */
const routeBound = Object.keys(endpoints).length * 2;
/** About 9 ms a request on PGlite on a 2-core machine, four times that; or the time budget, three times. */
const timeout = scaled(120_000) + routeBound * ('runs' in budget ? budget.runs * 36 : budget.ms * 3);

let t: TestApp;
let fixture: Fixture;
let other: OtherDoctor;

beforeAll(async () => {
  t = await createTestApp();
  fixture = await createFixture(t);
  // A second doctor with the same kinds of records (case, files, message, plan, clinic,
  // picture); its reset link is the first doctor's, since a reset link is a bearer secret.
  const otherFixture = await createFixture(t);
  other = otherDoctor(t, { ...otherFixture, resetToken: fixture.resetToken });
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

  it('the other-doctor detector finds the other doctor in an answer and in a changed row', async () => {
    const admin = await t.adminToken();
    const detail = await t.as(admin, { method: 'GET', url: `/api/case/${other.fixture.caseId}` });
    expect(detail.statusCode).toBe(200);
    expect(other.findIn(detail.body)).toBeDefined();
    const own = await t.as(admin, { method: 'GET', url: `/api/case/${fixture.caseId}` });
    expect(other.findIn(own.body)).toBeUndefined();
    const before = await other.rows();
    const reader = await t.as(admin, {
      method: 'POST',
      url: `/api/case/${other.fixture.caseId}/messages/read`,
    });
    expect(reader.statusCode).toBe(200);
    expect(await other.rows()).not.toBe(before);
  });

  it('a time budget that ends before the first request is answered still checks that request', async () => {
    const route = routesToFuzz(t, fixture).routes.find((candidate) => candidate.key === 'GET /api/ready')!;
    const fuzzer = new RouteFuzzer(t, fixture);
    // 1 ms: fast-check's limit comes during the first run (or before it), as on a loaded machine.
    await fuzzer.fuzz(route, { budget: { ms: 1 }, seed });
    expect(fuzzer.stats.requests).toBeGreaterThanOrEqual(1);
  });

  // As the doctor, then as the doctor's assistant (docs/decisions/assistants.md § Assistants): neither reaches another doctor's records.
  for (const [actor, who] of [
    ['doctor', 'a doctor'],
    ['assistant', "a doctor's assistant"],
  ] as const) {
    it(
      `${'runs' in isolationBudget ? `${isolationBudget.runs} runs` : `${isolationBudget.ms / 1000} s`} per route as ${who} with another doctor's ids: a 2xx never returns or changes the other doctor's records`,
      async () => {
        // The examples point at the other doctor's case, files, plan, clinic and user; the params draw from its ids.
        const { routes } = routesToFuzz(t, other.fixture);
        const chosen = onlyRoute ? routes.filter((route) => route.key === onlyRoute) : routes;
        const fuzzer = new RouteFuzzer(t, fixture, other);
        const rowsBefore = await other.rows();
        const failures: string[] = [];
        for (const route of chosen) {
          try {
            await fuzzer.fuzz(route, {
              budget: isolationBudget,
              seed,
              path: replayPath,
              actor,
              ids: existingIds(other.fixture),
            });
          } catch (error) {
            failures.push(`${route.key} (seed ${seed}):\n${(error as Error).message}`);
          }
        }
        const { stats } = fuzzer;
        const rowsUnchanged = (await other.rows()) === rowsBefore;
        console.log(
          `[figure] fuzz ${actor} vs doctor: ${stats.requests} requests as ${who} with another doctor's ids over ` +
            `${chosen.length} routes (seed ${seed}), ${stats.otherDoctorChecked} 2xx answers checked, ` +
            `${stats.otherDoctorLeaks} named or changed the other doctor's records, ` +
            `the other doctor's rows ${rowsUnchanged ? 'unchanged' : 'CHANGED'} after the run`,
        );
        expect(failures).toEqual([]);
        expect(rowsUnchanged).toBe(true);
        expect(stats.otherDoctorChecked).toBeGreaterThan(0);
      },
      timeout,
    );
  }

  it(
    `${perRoute} per route: never a 5xx, no stack trace, a refused request changes no row or file`,
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
          await fuzzer.fuzz(route, { budget, seed, path: replayPath });
        } catch (error) {
          failures.push(`${route.key} (seed ${seed}):\n${(error as Error).message}`);
        }
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const { stats } = fuzzer;
      console.log(
        `[figure] fuzz: ${stats.requests} runs over ${chosen.length} routes (seed ${seed}, ${perRoute} per route), ` +
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
