import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planBase, planStageMotion } from '../src/meshes/plan-view.ts';
import { decodePlanArch, encodePlanArch, planFitKey, readPlanFitData } from '../src/services/plans/plan-fit-data.ts';
import { caseFields, caseForm, createCaseDoctor, submitCase, type UploadFile } from './helpers/case-factories.ts';
import { planArchStages, type PlanOptions } from './helpers/dental-meshes.ts';
import { approvedPlan, planForm, planSummaryOf } from './helpers/plan-factories.ts';
import { progressScan } from './helpers/progress-scans.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * The plan as a progress fit reads it (services/plans/plan-fit-data.ts): stored once by the
 * plan's processing, read by each fit instead of every stage's STL; a plan without it (processed
 * before it existed) is read from its stages and has it stored by its first fit, with the same result.
 */

let t: TestApp;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let caseId: number;
let planId: number;
const plan: PlanOptions = { stages: 6, trianglesPerTooth: 3000 };
const stage = 5;
const stls = [...planArchStages('upper', plan)];

beforeAll(async () => {
  t = await createTestApp();
  const admin = await t.adminToken();
  doctor = await createCaseDoctor(t);
  const created = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId)));
  expect(created.statusCode, created.body).toBe(200);
  caseId = created.json<{ CaseId: number }>().CaseId;
  const files: UploadFile[] = stls.map((data, k) => ({ name: `upper_${k}.stl`, data: Buffer.from(data) }));
  ({ planId } = await approvedPlan(t, admin, doctor.token, caseId, planForm(planSummaryOf(plan.stages!, 0), files)));
});
afterAll(() => t?.close());

describe("the plan's arch stored for progress fits", () => {
  it("is stored by the plan's processing: stage 0's mesh and each later stage's motions, as read from the STLs", async () => {
    const base = planBase(stls[0]!);
    const motions = stls.slice(1).map((stl) => planStageMotion(stl, base).motions);
    const stored = await readPlanFitData(t.app.storage, planId, 'upper', plan.stages!);
    expect(stored).toEqual({
      positions: base.positions,
      indices: base.indices,
      shellOf: base.shellOf,
      shells: base.shells,
      stageMotions: motions,
    });
    // Far smaller than the stages it stands for.
    const size = (await t.app.storage.stat(planFitKey(planId, 'upper')))!.size;
    expect(size).toBeLessThan(stls[0]!.byteLength / 2);
    // None for an arch without stages; none read for another count of stages.
    expect(await readPlanFitData(t.app.storage, planId, 'lower', plan.stages!)).toBeUndefined();
    expect(await readPlanFitData(t.app.storage, planId, 'upper', plan.stages! + 1)).toBeUndefined();
  });

  it('reads anything else as absent: another layout, a cut-off object, a damaged one', async () => {
    const base = planBase(stls[0]!);
    const encoded = encodePlanArch(base, [planStageMotion(stls[1]!, base).motions]);
    expect(decodePlanArch(encoded)?.stageMotions).toHaveLength(1);
    expect(decodePlanArch(encoded.subarray(0, encoded.byteLength - 8))).toBeUndefined();
    const otherVersion = Buffer.from(encoded);
    otherVersion.writeUInt32LE(99, 4);
    expect(decodePlanArch(otherVersion)).toBeUndefined();
    expect(decodePlanArch(new Uint8Array(3))).toBeUndefined();
    await t.app.storage.put('plan-fits/999999-upper.bin.gz', Buffer.from('not gzip'), 'application/gzip');
    expect(await readPlanFitData(t.app.storage, 999999, 'upper', 1)).toBeUndefined();
  });

  it('a fit without it reads the stages, stores it, and answers as a fit with it', async () => {
    const scan = progressScan({ arch: 'upper', plan, stage, seed: 3, trianglesPerTooth: 8000, gumTriangles: 20_000 });
    const fit = async () => {
      const form = new FormData();
      form.append('stage', String(stage));
      form.append('upper', new Blob([new Uint8Array(scan.stl)]), 'upper.stl');
      const sent = await t.as(doctor.token, {
        method: 'POST',
        url: `/api/case/${caseId}/progress-scans`,
        payload: form,
      });
      expect(sent.statusCode, sent.body).toBe(202);
      await t.app.jobs.runDue();
      const { progressScanId } = sent.json<{ progressScanId: number }>();
      const answer = await t.as(doctor.token, {
        method: 'GET',
        url: `/api/case/${caseId}/progress-scans/${progressScanId}`,
      });
      const result = answer.json<{ state: string; reason?: string; arches: unknown[] }>();
      expect(result.reason).toBeUndefined();
      expect(result.state).toBe('done');
      return result.arches;
    };
    const withStored = await fit();
    await t.app.storage.delete(planFitKey(planId, 'upper'));
    const fromStages = await fit();
    expect(fromStages).toEqual(withStored);
    expect(await readPlanFitData(t.app.storage, planId, 'upper', plan.stages!)).toBeDefined();
  });
});
