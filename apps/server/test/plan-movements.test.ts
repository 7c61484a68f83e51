import type { LabSettings, PlanMovementsAnswer, ToothMovement } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseFields, caseForm, createCaseDoctor, submitCase, type UploadFile } from './helpers/case-factories.ts';
import { planArchStages, planArchTeeth, type GeneratedTooth } from './helpers/dental-meshes.ts';
import { createStaff } from './helpers/factories.ts';
import { planForm, planSummaryOf, uploadPlan } from './helpers/plan-factories.ts';
import { cross, type Vec3 } from './helpers/rigid-motion.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * docs/quality/plans-and-meshes.md, Tooth movements (issue 23): each tooth's movement from stage 0
 * to the last stage, measured after upload by the job that makes the viewer's copy, against
 * a generated plan whose every tooth's motion is known; numbered by its place on the arch;
 * flagged over the lab's per-stage limit; read only by who may read the plan.
 */

let t: TestApp;
let admin: string;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let caseId: number;
let planId: number;
const stages = { upper: 12, lower: 9 };
const options = { teeth: 14, trianglesPerTooth: 300, seed: 3 };
const limits = { stepMm: 0.25, stepDeg: 1.5 };

const stageNames = (arch: string, stls: Uint8Array[]): UploadFile[] =>
  stls.map((data, stage) => ({ name: `${arch}_${String(stage).padStart(2, '0')}.stl`, data: Buffer.from(data) }));

async function newCase(): Promise<number> {
  const created = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId)));
  expect(created.statusCode, created.body).toBe(200);
  return created.json<{ CaseId: number }>().CaseId;
}

async function upload(onCase: number, files: UploadFile[], upper: number, lower = 0): Promise<number> {
  const response = await uploadPlan(t, admin, onCase, planForm(planSummaryOf(upper, lower), files));
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ planId: number }>().planId;
}

/** The lab's limits, as the administrator sets them on the Settings screen. */
async function setStepLimits(planStepLimits: typeof limits) {
  const settings = (await t.as(admin, { method: 'GET', url: '/api/settings' })).json<LabSettings>();
  const saved = await t.as(admin, { method: 'PUT', url: '/api/settings', payload: { ...settings, planStepLimits } });
  expect(saved.statusCode, saved.body).toBe(200);
}

const movements = (token: string, onCase = caseId, plan = planId) =>
  t.as(token, { method: 'GET', url: `/api/case/${onCase}/plans/${plan}/movements` });

const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const degrees = (radians: number) => (radians * 180) / Math.PI;

/** R_b R_a^T, row-major: the rotation from pose a to pose b. */
function rotationBetween(a: number[], b: number[]): number[] {
  return Array.from({ length: 9 }, (_, at) => {
    const [row, column] = [Math.floor(at / 3), at % 3];
    return b[row * 3]! * a[column * 3]! + b[row * 3 + 1]! * a[column * 3 + 1]! + b[row * 3 + 2]! * a[column * 3 + 2]!;
  });
}

const angleOf = (r: number[]) => Math.acos(Math.min(1, Math.max(-1, (r[0]! + r[4]! + r[8]! - 1) / 2)));

/** A rotation matrix as axis times angle. */
function rotationVector(r: number[]): Vec3 {
  const angle = angleOf(r);
  const axis: Vec3 = [r[7]! - r[5]!, r[2]! - r[6]!, r[3]! - r[1]!];
  const length = Math.hypot(...axis);
  return length < 1e-12 ? [0, 0, 0] : (axis.map((value) => (value / length) * angle) as Vec3);
}

/** What the answer should say of a generated tooth, from the generator's own axes and poses. */
function expectedMovement(tooth: GeneratedTooth) {
  const { centroids, rotations, mesial, buccal, crown } = tooth;
  const moved = centroids.at(-1)!.map((value, axis) => value - centroids[0]![axis]!) as Vec3;
  const turned = rotationVector(rotationBetween(rotations[0]!, rotations.at(-1)!));
  let maxStepMm = 0;
  let maxStepDeg = 0;
  for (let stage = 1; stage < centroids.length; stage++) {
    maxStepMm = Math.max(
      maxStepMm,
      Math.hypot(...centroids[stage]!.map((v, axis) => v - centroids[stage - 1]![axis]!)),
    );
    maxStepDeg = Math.max(maxStepDeg, degrees(angleOf(rotationBetween(rotations[stage - 1]!, rotations[stage]!))));
  }
  return {
    translationMm: {
      mesiodistal: dot(moved, mesial),
      buccolingual: dot(moved, buccal),
      vertical: dot(moved, crown),
      total: Math.hypot(...moved),
    },
    rotationDeg: {
      tip: degrees(dot(turned, cross(crown, mesial))),
      torque: degrees(dot(turned, cross(crown, buccal))),
      rotation: degrees(dot(turned, cross(mesial, buccal))),
    },
    maxStepMm,
    maxStepDeg,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  await setStepLimits(limits);
  doctor = await createCaseDoctor(t);
  caseId = await newCase();
  const files = [
    ...stageNames('upper', [...planArchStages('upper', { ...options, stages: stages.upper })]),
    ...stageNames('lower', [...planArchStages('lower', { ...options, stages: stages.lower })]),
  ];
  planId = await upload(caseId, files, stages.upper, stages.lower);
});
afterAll(() => t?.close());

describe("a plan version's tooth movements", () => {
  it('are being measured until the copy is made', async () => {
    const answer = await movements(doctor.token);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      available: false,
      reason:
        'Upper arch: the movements are being measured with the 3D copy; this takes a minute. ' +
        'Lower arch: the movements are being measured with the 3D copy; this takes a minute.',
      limits,
      teeth: [],
    });
    await t.app.jobs.runDue();
  });

  it("number each tooth by its place on the arch and match the generator's moves within 0.05 mm and 0.5°", async () => {
    const answer = (await movements(doctor.token)).json<PlanMovementsAnswer>();
    expect(answer).toMatchObject({ available: true, limits });
    expect(answer.reason).toBeUndefined();
    // 14 teeth an arch: no third molars (Universal 1, 16, 17, 32).
    expect(answer.teeth.map((tooth) => tooth.tooth)).toEqual([
      ...Array.from({ length: 14 }, (_, i) => i + 2),
      ...Array.from({ length: 14 }, (_, i) => i + 18),
    ]);
    let overLimit = 0;
    for (const arch of ['upper', 'lower'] as const) {
      for (const [index, generated] of planArchTeeth(arch, { ...options, stages: stages[arch] }).entries()) {
        const measured = answer.teeth.find((tooth) => tooth.tooth === generated.universal) as ToothMovement;
        expect(measured.arch).toBe(arch);
        // The copy's shells are numbered in the order the STL has them: the generator's.
        expect(measured.shell).toBe(index);
        const expected = expectedMovement(generated);
        const label = `${arch} tooth ${generated.universal}`;
        for (const [key, value] of Object.entries(expected.translationMm)) {
          expect(measured.translationMm[key as keyof typeof expected.translationMm], `${label} ${key}`).toBeCloseTo(
            value,
            1.3, // within 0.05 mm
          );
        }
        for (const [key, value] of Object.entries(expected.rotationDeg)) {
          const got = measured.rotationDeg[key as keyof typeof expected.rotationDeg];
          expect(Math.abs(got - value), `${label} ${key}: ${got} against ${value}`).toBeLessThanOrEqual(0.5);
        }
        expect(Math.abs(measured.maxStepMm - expected.maxStepMm), `${label} largest step`).toBeLessThanOrEqual(0.01);
        expect(Math.abs(measured.maxStepDeg - expected.maxStepDeg), `${label} largest turn`).toBeLessThanOrEqual(0.1);
        expect(measured.overLimit).toBe(measured.maxStepMm > limits.stepMm || measured.maxStepDeg > limits.stepDeg);
        if (measured.overLimit) overLimit++;
      }
    }
    // The generator's steps reach 0.3 mm and 2°: some teeth are over the limit, some are not.
    expect(overLimit).toBeGreaterThan(0);
    expect(overLimit).toBeLessThan(28);
  });

  it("flag teeth by the lab's limits of the moment: loosened on the Settings screen, none is over", async () => {
    const loose = { stepMm: 5, stepDeg: 45 };
    await setStepLimits(loose);
    const answer = (await movements(doctor.token)).json<PlanMovementsAnswer>();
    expect(answer.limits).toEqual(loose);
    expect(answer.teeth.filter((tooth) => tooth.overLimit)).toEqual([]);
    await setStepLimits(limits);
    expect((await movements(doctor.token)).json<PlanMovementsAnswer>().teeth.some((tooth) => tooth.overLimit)).toBe(
      true,
    );
  });

  it('answer 404 to another doctor and to a plan of another case; Dashboard staff read them', async () => {
    const other = await createCaseDoctor(t);
    const refused = await movements(other.token);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ message: 'Case not found', code: 'notFound', params: { what: 'Case' } });
    const otherCase = await newCase();
    expect((await movements(doctor.token, otherCase, planId)).json()).toEqual({
      message: 'Plan not found',
      code: 'notFound',
      params: { what: 'Plan' },
    });
    const staff = await createStaff(t, [1]);
    expect((await movements(staff.token)).json<PlanMovementsAnswer>().teeth).toHaveLength(28);
  });

  it('say why there are none when the arch is one shell, or its shells change shape', async () => {
    const onCase = await newCase();
    const fused = [...planArchStages('upper', { teeth: 1, stages: 3, trianglesPerTooth: 300 })];
    const fusedPlan = await upload(onCase, stageNames('upper', fused), 3);
    const bent = [...planArchStages('lower', { teeth: 3, stages: 2, trianglesPerTooth: 300 })].map((stl) =>
      Buffer.from(stl),
    );
    // Stage 2's first vertex pulled 0.2 mm along x: a shell bent, not moved.
    bent[2]!.writeFloatLE(bent[2]!.readFloatLE(84 + 12) + 0.2, 84 + 12);
    const bentPlan = await upload(onCase, stageNames('lower', bent), 0, 2);
    await t.app.jobs.runDue();
    expect((await movements(doctor.token, onCase, fusedPlan)).json()).toEqual({
      available: false,
      reason:
        'Upper arch: each stage is one fused shell, and movements are measured when each tooth is a separate shell.',
      limits,
      teeth: [],
    });
    const bentAnswer = (await movements(doctor.token, onCase, bentPlan)).json<PlanMovementsAnswer>();
    expect(bentAnswer).toMatchObject({ available: false, teeth: [] });
    expect(bentAnswer.reason).toMatch(
      /^Lower arch: movements are measured when each tooth is a separate shell moved rigidly from stage to stage; here the stages are not the same shells moved: /,
    );
  });
});
