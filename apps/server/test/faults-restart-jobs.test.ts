import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortal, type PortalProcess } from '../../../e2e/helpers/portal-process.ts';
import { caseFields, caseForm } from './helpers/case-factories.ts';
import { planArchStages } from './helpers/dental-meshes.ts';
import { planForm, planSummaryOf } from './helpers/plan-factories.ts';
import { portalEnv, portalJson, seededDatabase } from './helpers/portal-process-api.ts';
import { testAdmin } from './helpers/test-app.ts';
import { waitUntil } from './helpers/wait-until.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';
import { stopStartedProcesses } from '../../../e2e/helpers/started-processes.ts';

/**
 * docs/quality/faults.md, Background jobs: the real server (`node apps/server/dist/main.js`)
 * killed (SIGKILL) while it makes a plan's copy for the viewer, then started again on the
 * same data: the job is taken up again once its lease has run out, and the copy is made.
 * PGlite on the PGlite pass, a fresh PostgreSQL database on the other.
 */

let dataDir: string;
let env: Record<string, string>;
let dropDatabase = async () => {};
let portal: PortalProcess;
/** The `job started` lines the portal processes logged, in order. */
const started: { jobId: number; kind: string; attempts: number; pid: number }[] = [];

const { callJson, login, createDoctor } = portalJson(() => portal);

const start = () =>
  startPortal(env, {
    onOutput(line) {
      if (!line.includes('"job started"')) return;
      const entry = JSON.parse(line) as { jobId: number; kind: string; attempts: number; pid: number };
      started.push({ jobId: entry.jobId, kind: entry.kind, attempts: entry.attempts, pid: entry.pid });
    },
  });

/**
 * Checks every `everyMs`: the log's lines every 10 ms (the job must be caught while it runs),
 * the portal's answers every 200 ms (each check is a request that takes CPU from the copy).
 */
const waitFor = (condition: () => boolean | Promise<boolean>, what: string, everyMs: number) =>
  waitUntil(condition, what, { timeoutMs: 120_000, everyMs });

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-restart-jobs-'));
  const database = await seededDatabase(dataDir, 'restart_jobs');
  dropDatabase = database.drop;
  // info: the queue logs each job it starts; a lease of 3 s: a dead process's job runs again soon.
  env = { ...portalEnv(dataDir, database.url), LOG_LEVEL: 'info', JOB_LEASE_SECONDS: '3' };
  portal = await start();
}, scaled(300_000));

afterAll(async () => {
  await portal?.stop();
  // Also what a failed or timed-out test was still starting (e2e/helpers/started-processes.ts).
  await stopStartedProcesses();
  await dropDatabase();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a background job when its process is killed', () => {
  it('runs again after a restart, once its lease has run out, and its copy is made', async () => {
    const adminToken = await login(testAdmin.username, testAdmin.password);
    const doctor = await createDoctor(adminToken);
    const { CaseId } = await callJson<{ CaseId: number }>('POST', '/case/add', {
      token: doctor.token,
      form: caseForm(caseFields(doctor.clinicId)),
    });
    // Enough stages that converting them takes a while (about a second on a quiet machine).
    const stls = [...planArchStages('upper', { stages: 12, trianglesPerTooth: 4_000 })];
    const files = stls.map((data, stage) => ({
      name: `upper_${String(stage).padStart(2, '0')}.stl`,
      data: Buffer.from(data),
    }));
    const { planId } = await callJson<{ planId: number }>('POST', `/case/${CaseId}/plans`, {
      token: adminToken,
      form: planForm(planSummaryOf(stls.length - 1, 0), files),
    });
    const planJob = () => started.find((entry) => entry.kind === 'plan.view');
    await waitFor(() => planJob() !== undefined, 'the plan job to start', 10);
    const killed = portal;
    killed.child.kill('SIGKILL');
    await once(killed.child, 'exit');
    const viewsUrl = `/case/${CaseId}/plans/${planId}/views`;

    portal = await start();
    await waitFor(
      async () =>
        (await callJson<{ upper: { state: string } }>('GET', viewsUrl, { token: adminToken })).upper.state !==
        'pending',
      'the copy to be made',
      200,
    );
    expect((await callJson<{ upper: { state: string } }>('GET', viewsUrl, { token: adminToken })).upper.state).toBe(
      'ready',
    );
    // The same job, started again by the new process: its second attempt.
    const runs = started.filter((entry) => entry.jobId === planJob()!.jobId);
    expect(runs.map((entry) => entry.attempts)).toEqual([1, 2]);
    expect(runs[0]!.pid).toBe(killed.child.pid);
    expect(runs[1]!.pid).toBe(portal.child.pid);
    const glb = await portal.api('GET', `${viewsUrl}/upper/mesh.glb`, { token: adminToken });
    expect(glb.status).toBe(200);
    // Read to the end: a body left unread held the portal's shutdown open for its whole 30 s.
    expect(
      Buffer.from(await glb.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).toBe('glTF');
  });
});
