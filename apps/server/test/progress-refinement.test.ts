import { createHash } from 'node:crypto';
import type { CaseAttachment, CaseDetail } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseFields, caseForm, createCaseDoctor, snapshot, submitCase } from './helpers/case-factories.ts';
import { planArchStages, type PlanOptions } from './helpers/dental-meshes.ts';
import { createStaff } from './helpers/factories.ts';
import { planForm, planSummaryOf, uploadPlan } from './helpers/plan-factories.ts';
import { progressScan } from './helpers/progress-scans.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * A refinement ordered from a progress scan (docs/decisions/progress-scans.md § Ordering a
 * refinement): `progressScanId` on the order's POST /api/case/add makes that scan's files the
 * order's scans, resolved for the caller; refusals store nothing.
 */

let t: TestApp;
let admin: string;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let other: Awaited<ReturnType<typeof createCaseDoctor>>;
let parentId: number;
let otherParentId: number;
let progressScanId: number;
let otherScanId: number;
const plan: PlanOptions = { stages: 3, trianglesPerTooth: 300 };
const scanSize = { trianglesPerTooth: 600, gumTriangles: 2000, plan };
const upper = progressScan({ arch: 'upper', stage: 2, seed: 3, ...scanSize });
const lower = progressScan({ arch: 'lower', stage: 2, seed: 4, ...scanSize });
const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** A case of `owner` with an approved one-arch-each plan of 3 stages, and a progress scan of both arches sent. */
async function caseWithScan(owner: typeof doctor): Promise<{ caseId: number; progressScanId: number }> {
  const created = await submitCase(t, owner.token, caseForm(caseFields(owner.clinicId)));
  expect(created.statusCode, created.body).toBe(200);
  const caseId = created.json<{ CaseId: number }>().CaseId;
  const stages = [...planArchStages('upper', plan)].map((data, index) => ({
    name: `upper_${String(index).padStart(2, '0')}.stl`,
    data: Buffer.from(data),
  }));
  const lowerStages = [...planArchStages('lower', plan)].map((data, index) => ({
    name: `lower_${String(index).padStart(2, '0')}.stl`,
    data: Buffer.from(data),
  }));
  const uploaded = await uploadPlan(
    t,
    admin,
    caseId,
    planForm(planSummaryOf(plan.stages!, plan.stages!), [...stages, ...lowerStages]),
  );
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  const planId = uploaded.json<{ planId: number }>().planId;
  await t.app.jobs.runDue();
  const approved = await t.as(owner.token, {
    method: 'POST',
    url: `/api/case/${caseId}/plans/${planId}/approve`,
    payload: { reviewedIn3d: true, findingsAcknowledged: true },
  });
  expect(approved.statusCode, approved.body).toBe(200);
  const form = new FormData();
  form.append('stage', '2');
  form.append('upper', new Blob([new Uint8Array(upper.stl)]), 'upper.stl');
  form.append('lower', new Blob([new Uint8Array(lower.stl)]), 'lower.stl');
  const sent = await t.as(owner.token, { method: 'POST', url: `/api/case/${caseId}/progress-scans`, payload: form });
  expect(sent.statusCode, sent.body).toBe(202);
  return { caseId, progressScanId: sent.json<{ progressScanId: number }>().progressScanId };
}

const order = (token: string, fields: Record<string, string | number | boolean>, files = {}) =>
  submitCase(t, token, caseForm(fields, files));
const attachments = async (token: string, caseId: number) =>
  (await t.as(token, { method: 'GET', url: `/api/case/get_cases_attachments_by_case_id/${caseId}` })).json<
    CaseAttachment[]
  >();

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  doctor = await createCaseDoctor(t);
  other = await createCaseDoctor(t);
  ({ caseId: parentId, progressScanId } = await caseWithScan(doctor));
  ({ caseId: otherParentId, progressScanId: otherScanId } = await caseWithScan(other));
});
afterAll(() => t?.close());

describe('a refinement from a progress scan', () => {
  it("takes the scan's upper and lower files as the order's scans (a digital impression needs no other)", async () => {
    const made = await order(
      doctor.token,
      caseFields(doctor.clinicId, {
        parentCaseId: parentId,
        orderType: 'Refinement',
        progressScanId,
        impressionType: 'Digital Impression',
        specialInstruction: 'Refinement from the progress scan at aligner 2. Off track: 3.',
      }),
    );
    expect(made.statusCode, made.body).toBe(200);
    const childId = made.json<{ CaseId: number }>().CaseId;
    const child = (await t.as(doctor.token, { method: 'GET', url: `/api/case/${childId}` })).json<CaseDetail>();
    expect(child).toMatchObject({ parentCaseId: parentId, orderType: 'Refinement' });
    const files = await attachments(doctor.token, childId);
    expect(files.map(({ FileType, FileName, FileSize, Sha256 }) => ({ FileType, FileName, FileSize, Sha256 }))).toEqual(
      [
        {
          FileType: 'MaxillaryScan',
          FileName: `progress-scan-${progressScanId}-upper.stl`,
          FileSize: upper.stl.byteLength,
          Sha256: sha256(upper.stl),
        },
        {
          FileType: 'MandibularScan',
          FileName: `progress-scan-${progressScanId}-lower.stl`,
          FileSize: lower.stl.byteLength,
          Sha256: sha256(lower.stl),
        },
      ],
    );
    // The order's own copy: its file reads back whole, and the scan keeps its own.
    const download = await t.as(doctor.token, { method: 'GET', url: files[0]!.FilePath });
    expect(download.statusCode).toBe(200);
    expect(sha256(download.rawPayload)).toBe(sha256(upper.stl));
    const scan = await t.as(doctor.token, {
      method: 'GET',
      url: `/api/case/${parentId}/progress-scans/${progressScanId}`,
    });
    expect(scan.statusCode).toBe(200);
  });

  it("lets the lab order it for the parent's doctor", async () => {
    const staff = await createStaff(t, [1, 6]);
    const made = await order(
      staff.token,
      caseFields(doctor.clinicId, {
        userId: doctor.userId,
        parentCaseId: parentId,
        orderType: 'Refinement',
        progressScanId,
      }),
    );
    expect(made.statusCode, made.body).toBe(200);
    expect(await attachments(admin, made.json<{ CaseId: number }>().CaseId)).toHaveLength(2);
  });

  it("is 400 for another doctor's scan, another case's, an unknown one, or with another order type, and stores nothing", async () => {
    const before = await snapshot(t);
    const refusals: [Record<string, string | number | boolean>, string][] = [
      // Another doctor's scan through their case as the parent: the parent is refused first.
      [{ parentCaseId: otherParentId, orderType: 'Refinement', progressScanId: otherScanId }, 'progressScanId'],
      // Another doctor's scan with the caller's own case as the parent.
      [{ parentCaseId: parentId, orderType: 'Refinement', progressScanId: otherScanId }, 'progressScanId'],
      [{ parentCaseId: parentId, orderType: 'Refinement', progressScanId: 999_999 }, 'progressScanId'],
      [{ parentCaseId: parentId, orderType: 'Refinement', progressScanId: 'x' }, 'progressScanId'],
      [{ parentCaseId: parentId, orderType: 'Retainer', progressScanId }, 'progressScanId'],
    ];
    for (const [fields, field] of refusals) {
      const refused = await order(doctor.token, caseFields(doctor.clinicId, fields));
      expect(refused.statusCode, `${JSON.stringify(fields)}: ${refused.body}`).toBe(400);
      const body = refused.json<{ message: string; fieldErrors?: Record<string, string> }>();
      expect(Object.keys(body.fieldErrors ?? {}), refused.body).toContain(field);
    }
    expect(
      (await order(doctor.token, caseFields(doctor.clinicId, refusals[1]![0]))).json<{ message: string }>().message,
    ).toBe('Progress scan is not valid');
    // A scan file sent besides the scan's own is refused on its field.
    const twice = await order(
      doctor.token,
      caseFields(doctor.clinicId, { parentCaseId: parentId, orderType: 'Refinement', progressScanId }),
      { maxillaryScan: { name: 'upper.stl', data: Buffer.from(upper.stl) } },
    );
    expect(twice.statusCode, twice.body).toBe(400);
    expect(twice.json<{ fieldErrors: Record<string, string> }>().fieldErrors.maxillaryScan).toBe(
      "The progress scan's scans are this order's: send no other here",
    );
    expect(await snapshot(t)).toEqual(before);
  });
});
