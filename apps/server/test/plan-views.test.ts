import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, meshViews, planStageFiles } from '../src/db/schema.ts';
import { rigidToleranceMm } from '../src/meshes/plan-view.ts';
import { readStl } from '../src/meshes/stl.ts';
import { planViewJob } from '../src/services/plans/plan-views.ts';
import { caseFields, caseForm, createCaseDoctor, submitCase, type UploadFile } from './helpers/case-factories.ts';
import { planArchStages } from './helpers/dental-meshes.ts';
import { createStaff } from './helpers/factories.ts';
import { decodePlanGlb, distancesToStl } from './helpers/plan-glb.ts';
import { planForm, planSummaryOf, uploadPlan } from './helpers/plan-factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * docs/quality/plans-and-meshes.md, Viewing copies of meshes (issue 22): a plan version's viewer copy, one GLB
 * per arch of stage 0's teeth and their motion per stage, made by a background job; reached
 * only by who may read the plan; a plan whose stages are not the same teeth moved gets a
 * copy per stage instead; a job that cannot read its stages is retried, then reported.
 */

let t: TestApp;
let admin: string;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let other: Awaited<ReturnType<typeof createCaseDoctor>>;
let caseId: number;
let planId: number;
const stages = { upper: 4, lower: 3 };
const options = { teeth: 3, trianglesPerTooth: 400, seed: 5 };
const stls = {
  upper: [...planArchStages('upper', { ...options, stages: stages.upper })],
  lower: [...planArchStages('lower', { ...options, stages: stages.lower })],
};

const filesOf = (arches: Partial<Record<'upper' | 'lower', Uint8Array[]>>): UploadFile[] =>
  Object.entries(arches).flatMap(([arch, list]) =>
    list.map((data, stage) => ({ name: `${arch}_${String(stage).padStart(2, '0')}.stl`, data: Buffer.from(data) })),
  );

async function newCase(): Promise<number> {
  const created = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId)));
  expect(created.statusCode, created.body).toBe(200);
  return created.json<{ CaseId: number }>().CaseId;
}

async function upload(onCase: number, upper: Uint8Array[], lower: Uint8Array[] = []): Promise<number> {
  const summary = planSummaryOf(upper.length - 1, Math.max(0, lower.length - 1));
  const response = await uploadPlan(
    t,
    admin,
    onCase,
    planForm(summary, filesOf({ upper, ...(lower.length && { lower }) })),
  );
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ planId: number }>().planId;
}

const viewsUrl = (onCase: number, plan: number) => `/api/case/${onCase}/plans/${plan}/views`;
const views = (token: string, onCase = caseId, plan = planId) =>
  t.as(token, { method: 'GET', url: viewsUrl(onCase, plan) });
const mesh = (token: string, arch: string, onCase = caseId, plan = planId) =>
  t.as(token, { method: 'GET', url: `${viewsUrl(onCase, plan)}/${arch}/mesh.glb` });

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  doctor = await createCaseDoctor(t);
  other = await createCaseDoctor(t);
  caseId = await newCase();
  planId = await upload(caseId, stls.upper, stls.lower);
});
afterAll(() => t?.close());

describe("a plan version's copy for the viewer", () => {
  it('is being made after the upload answered, and 409 until it is', async () => {
    const answer = await views(doctor.token);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      upper: { state: 'pending', bytes: null, triangles: null, error: null },
      lower: { state: 'pending', bytes: null, triangles: null, error: null },
    });
    const early = await mesh(doctor.token, 'upper');
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ message: 'The viewing copy is being made' });
    await t.app.jobs.runDue();
  });

  it("holds each arch's teeth and every stage: each vertex within a quantization step of the stage's STL", async () => {
    const answer = (await views(doctor.token)).json<
      Record<string, { state: string; bytes: number; triangles: number }>
    >();
    for (const arch of ['upper', 'lower'] as const) {
      expect(answer[arch]).toMatchObject({ state: 'ready', triangles: 3 * 400 });
      const response = await mesh(doctor.token, arch);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('model/gltf-binary');
      expect(response.headers['cache-control']).toBe('private, no-store');
      expect(response.rawPayload.byteLength).toBe(answer[arch]!.bytes);
      const decoded = await decodePlanGlb(response.rawPayload);
      expect(decoded).toMatchObject({ stages: stages[arch], shells: 3, triangles: 3 * 400 });
      // 14 bits over a tooth of a few millimetres: about a micrometre.
      expect(decoded.step).toBeLessThan(0.002);
      for (const [stage, stl] of stls[arch].entries()) {
        const { glbToStl, stlToGlb } = distancesToStl(decoded.positionsAt(stage), stl, 0.05);
        expect(glbToStl, `${arch} stage ${stage}`).toBeLessThan(decoded.step * 2 + rigidToleranceMm);
        expect(stlToGlb, `${arch} stage ${stage}`).toBeLessThan(decoded.step * 2 + rigidToleranceMm);
        // The overview keeps vertices of the tooth (fewer of them), moved the same way.
        const overview = distancesToStl(decoded.overviewPositionsAt(stage), stl, 0.05);
        expect(overview.glbToStl, `${arch} stage ${stage} overview`).toBeLessThan(decoded.step * 2 + rigidToleranceMm);
      }
      expect(decoded.overviewTriangles).toBeLessThan(decoded.triangles);
      // The whole arch, every stage, against one STL of it.
      expect(response.rawPayload.byteLength).toBeLessThan(stls[arch][0]!.byteLength);
    }
  });

  it('keeps the stage files the downloads, byte for byte', async () => {
    const plans = (await t.as(doctor.token, { method: 'GET', url: `/api/case/${caseId}/plans` })).json<
      { planId: number; stages: { arch: 'upper' | 'lower'; stage: number; url: string }[] }[]
    >();
    const { stages: files } = plans.find((plan) => plan.planId === planId)!;
    for (const file of files) {
      const download = await t.as(doctor.token, { method: 'GET', url: file.url });
      expect(Buffer.compare(download.rawPayload, Buffer.from(stls[file.arch][file.stage]!))).toBe(0);
    }
  });

  it('answers 404 to another doctor, for a plan of another case and for an arch without stages; staff read it', async () => {
    for (const response of [await views(other.token), await mesh(other.token, 'upper')]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Case not found', code: 'notFound', params: { what: 'Case' } });
    }
    const otherCase = await newCase();
    expect((await views(doctor.token, otherCase, planId)).json()).toEqual({
      message: 'Plan not found',
      code: 'notFound',
      params: { what: 'Plan' },
    });
    const upperOnly = await upload(otherCase, stls.upper.slice(0, 2));
    expect((await views(doctor.token, otherCase, upperOnly)).json()).toMatchObject({ lower: null });
    expect((await mesh(doctor.token, 'lower', otherCase, upperOnly)).statusCode).toBe(404);
    expect((await mesh(doctor.token, 'sideways', otherCase, upperOnly)).statusCode).toBe(400);
    const staff = await createStaff(t, [1]);
    expect((await mesh(staff.token, 'upper')).statusCode).toBe(200);
    await t.app.jobs.runDue();
  });

  it('is a copy per stage when the stages are not the same teeth moved (a tooth changes shape)', async () => {
    const bent = stls.upper.map((stl) => Buffer.from(stl));
    // Stage 2's first vertex of its first triangle pulled 0.2 mm along x: a shell bent, not moved.
    for (const [at, offset] of [[84 + 12, 0]] as const)
      bent[2]!.writeFloatLE(bent[2]!.readFloatLE(at + offset) + 0.2, at + offset);
    const onCase = await newCase();
    const plan = await upload(onCase, bent);
    await t.app.jobs.runDue();
    const answer = (await views(doctor.token, onCase, plan)).json<{ upper: { state: string; error: string } }>();
    expect(answer.upper.state).toBe('failed');
    expect(answer.upper.error).toMatch(/^the stages are not the same shells moved: /);
    expect((await mesh(doctor.token, 'upper', onCase, plan)).json()).toEqual({
      message: 'No viewing copy could be made',
    });
    const keys = await t.app.db
      .select({ key: planStageFiles.storageKey })
      .from(planStageFiles)
      .where(eq(planStageFiles.planId, plan));
    const perStage = await t.app.db
      .select()
      .from(meshViews)
      .where(
        inArray(
          meshViews.sourceKey,
          keys.map((row) => row.key),
        ),
      );
    expect(perStage.map((row) => row.state)).toEqual(bent.map(() => 'ready'));
    // Each stage's copy, served with the stage file's own access.
    const plans = (await t.as(doctor.token, { method: 'GET', url: `/api/case/${onCase}/plans` })).json<
      { stages: { url: string }[] }[]
    >();
    for (const { url } of plans[0]!.stages) {
      const viewUrl = `/api/case/plan-file-views/${url.split('/').at(-2)}`;
      const state = await t.as(doctor.token, { method: 'GET', url: viewUrl });
      expect(state.json()).toMatchObject({ state: 'ready', triangles: readStl(stls.upper[0]!).triangles });
      const glb = await t.as(doctor.token, { method: 'GET', url: `${viewUrl}/mesh.glb` });
      expect(glb.statusCode).toBe(200);
      expect(glb.headers['content-type']).toBe('model/gltf-binary');
      expect((await t.as(other.token, { method: 'GET', url: viewUrl })).statusCode).toBe(404);
    }
  });

  it('retries a job that cannot read its stages, then reports it failed with the reason', async () => {
    const onCase = await newCase();
    const plan = await upload(onCase, stls.upper.slice(0, 3));
    const [stage1] = await t.app.db
      .select({ key: planStageFiles.storageKey })
      .from(planStageFiles)
      .where(and(eq(planStageFiles.planId, plan), eq(planStageFiles.stage, 1)));
    await t.app.storage.delete(stage1!.key);
    const thisJob = and(eq(jobs.kind, planViewJob), sql`${jobs.payload}->>'planId' = ${String(plan)}`);
    for (let attempt = 1; attempt <= 5; attempt++) {
      await t.app.jobs.runDue();
      const [row] = await t.app.db.select().from(jobs).where(thisJob);
      expect(row).toMatchObject({ attempts: attempt, state: attempt < 5 ? 'queued' : 'failed' });
      expect(row!.lastError).toBeTruthy();
      // Its retry waits 10 s, then 40 s...: brought forward.
      await t.app.db
        .update(jobs)
        .set({ runAt: sql`now()` })
        .where(thisJob);
      if (attempt < 5)
        expect((await views(doctor.token, onCase, plan)).json()).toMatchObject({ upper: { state: 'pending' } });
    }
    const answer = (await views(doctor.token, onCase, plan)).json<{ upper: { state: string; error: string } }>();
    expect(answer.upper.state).toBe('failed');
    expect(answer.upper.error).toBeTruthy();
  });
});
