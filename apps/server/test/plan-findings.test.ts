import type { LabSettings, PlanFinding, PlanVersion } from '@portal/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseFields, caseForm, createCaseDoctor, submitCase, type UploadFile } from './helpers/case-factories.ts';
import { planArchStages, scanStl, type PlanOptions } from './helpers/dental-meshes.ts';
import { planForm, uploadPlan } from './helpers/plan-factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * docs/decisions/plans.md § Plans checked against the prescription (issue 41): each version in
 * GET /api/case/{caseId}/plans carries its findings, checked against generated plans that
 * break one rule each and one that keeps to all; the doctor's approval waits for the check
 * and needs the findings acknowledged.
 */

let t: TestApp;
let admin: string;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
const limits = { stepMm: 0.35, stepDeg: 2.5 };

/**
 * The prescription, in FDI: don't move 16 and 26 (Universal 3, 14), extract 17 and 27 (2, 15),
 * no attachment on 11 (8), IPR at the initial stage only.
 */
const prescription = {
  toothNumbering: 'FDI',
  moveTooth: '3, 14',
  extractTooth: '2, 15',
  noAttachment: '8',
  ipr: 'Initial stage IPR',
  iprPrescription: 'Initial stage IPR',
};

/**
 * An upper arch keeping to it: 12 teeth (Universal 3-14, so 17 and 27 are gone), 16 and 26
 * held, steps within the generator's 0.3 mm and 2°, under the lab's 0.35 mm and 2.5°.
 */
const keeping: PlanOptions = { teeth: 12, held: [3, 14], stages: 6, trianglesPerTooth: 300, seed: 5 };
const summaryKeeping = {
  upperStages: 6,
  lowerStages: 0,
  ipr: [{ contact: '12-13', amountMm: 0.2, stage: 1 }],
  attachmentTeeth: [13, 23],
  attachmentStages: [],
  notes: '',
};

const stages = (options: PlanOptions): UploadFile[] =>
  [...planArchStages('upper', options)].map((data, stage) => ({
    name: `upper_${String(stage).padStart(2, '0')}.stl`,
    data: Buffer.from(data),
  }));

async function newCase(): Promise<number> {
  const created = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId, prescription)));
  expect(created.statusCode, created.body).toBe(200);
  return created.json<{ CaseId: number }>().CaseId;
}

async function upload(caseId: number, files: UploadFile[], summary: object = summaryKeeping): Promise<number> {
  const response = await uploadPlan(t, admin, caseId, planForm(summary, files));
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ planId: number }>().planId;
}

async function versions(caseId: number): Promise<PlanVersion[]> {
  const listed = await t.as(doctor.token, { method: 'GET', url: `/api/case/${caseId}/plans` });
  expect(listed.statusCode, listed.body).toBe(200);
  return listed.json<PlanVersion[]>();
}

const approve = (caseId: number, planId: number, payload: object = { reviewedIn3d: true }) =>
  t.as(doctor.token, { method: 'POST', url: `/api/case/${caseId}/plans/${planId}/approve`, payload });

let breaking = 0;
const planIds = { doNotMove: 0, extraction: 0, ipr: 0, attachment: 0, stepLimit: 0 };

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  doctor = await createCaseDoctor(t);
  const settings = (await t.as(admin, { method: 'GET', url: '/api/settings' })).json<LabSettings>();
  const saved = await t.as(admin, {
    method: 'PUT',
    url: '/api/settings',
    payload: { ...settings, planStepLimits: limits },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  // One case, one version per rule broken, in turn (each supersedes the one before; all keep their findings).
  breaking = await newCase();
  planIds.doNotMove = await upload(breaking, stages({ ...keeping, held: [] }));
  planIds.extraction = await upload(breaking, stages({ ...keeping, teeth: 14 }));
  planIds.ipr = await upload(breaking, stages(keeping), {
    ...summaryKeeping,
    ipr: [{ contact: '12-13', amountMm: 0.2, stage: 4 }],
  });
  planIds.attachment = await upload(breaking, stages(keeping), {
    ...summaryKeeping,
    attachmentTeeth: [11, 13, 23],
    findingsReason: 'The 11 needs an attachment to derotate; agreed on the phone.',
  });
  planIds.stepLimit = await upload(breaking, stages({ ...keeping, stepScale: 2 }));
}, 120_000);
afterAll(() => t?.close());

describe("a plan version's findings against the prescription", () => {
  it('say the check is pending until the movements are measured, and refuse the approval meanwhile (409)', async () => {
    const newest = (await versions(breaking))[0]!;
    expect(newest.planId).toBe(planIds.stepLimit);
    expect(newest.findingsCheck).toEqual({
      state: 'pending',
      note: 'The tooth movements are being measured: the check against the prescription is not complete yet.',
    });
    // The summary is checked already: the attachment version's finding is there.
    const attachment = (await versions(breaking)).find((plan) => plan.planId === planIds.attachment)!;
    expect(attachment.findings.map((finding) => finding.kind)).toEqual(['attachment']);
    const refused = await approve(breaking, planIds.stepLimit, { reviewedIn3d: true, findingsAcknowledged: true });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toBe(
      'This version is still being checked against the prescription (its tooth movements are being measured): approve it when the check is done, in a minute or two',
    );
    await t.app.jobs.runDue();
  });

  it('name each rule a generated plan breaks, teeth in Universal numbers and the message in FDI', async () => {
    const listed = await versions(breaking);
    const findingsOf = (kind: keyof typeof planIds): PlanFinding[] =>
      listed.find((plan) => plan.planId === planIds[kind])!.findings;
    for (const plan of listed) expect(plan.findingsCheck).toEqual({ state: 'complete', note: null });

    const doNotMove = findingsOf('doNotMove');
    expect(doNotMove.map(({ kind, teeth }) => ({ kind, teeth }))).toEqual([
      { kind: 'doNotMove', teeth: [3] },
      { kind: 'doNotMove', teeth: [14] },
    ]);
    expect(doNotMove[0]!.message).toMatch(
      /^16 (moves \d+\.\d\d mm|turns \d+\.\d°|moves \d+\.\d\d mm and turns \d+\.\d°); the prescription says not to move it$/,
    );
    expect(doNotMove[1]!.message).toMatch(/^26 .*; the prescription says not to move it$/);

    expect(findingsOf('extraction')).toEqual([
      {
        kind: 'extraction',
        teeth: [2],
        message: '17 is still there in the last stage; the prescription says to extract it',
      },
      {
        kind: 'extraction',
        teeth: [15],
        message: '27 is still there in the last stage; the prescription says to extract it',
      },
    ]);
    expect(findingsOf('ipr')).toEqual([
      {
        kind: 'ipr',
        teeth: [7, 6],
        message: '0.20 mm of IPR at 12-13 (stage 4); the prescription asks for IPR at the initial stage only',
      },
    ]);
    expect(findingsOf('attachment')).toEqual([
      { kind: 'attachment', teeth: [8], message: 'Attachment on 11; the prescription says no attachment on it' },
    ]);
    const [stepLimit, ...others] = findingsOf('stepLimit');
    expect(others).toEqual([]);
    expect(stepLimit).toMatchObject({ kind: 'stepLimit' });
    expect(stepLimit!.teeth.length).toBeGreaterThan(0);
    expect(stepLimit!.message).toMatch(
      new RegExp(`^\\d+ teeth? moves? more than the lab's limit of 0.35 mm or 2.5° in one stage: \\d\\d \\(`),
    );
    // The movement table flags the same teeth over the limit.
    const movements = await t.as(doctor.token, {
      method: 'GET',
      url: `/api/case/${breaking}/plans/${planIds.stepLimit}/movements`,
    });
    const overLimit = movements
      .json<{ teeth: { tooth: number; overLimit: boolean }[] }>()
      .teeth.filter((tooth) => tooth.overLimit);
    expect(stepLimit!.teeth).toEqual(overLimit.map((tooth) => tooth.tooth));
    // The lab's reason goes with the version's summary.
    expect(listed.find((plan) => plan.planId === planIds.attachment)!.summary.findingsReason).toBe(
      'The 11 needs an attachment to derotate; agreed on the phone.',
    );
  });

  it('need the doctor to acknowledge them to approve (400 without), and record the acknowledgement', async () => {
    for (const payload of [{ reviewedIn3d: true }, { reviewedIn3d: true, findingsAcknowledged: false }]) {
      const refused = await approve(breaking, planIds.stepLimit, payload);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json()).toMatchObject({
        message: 'This version departs from the prescription or the limits: acknowledge the findings to approve it',
        fieldErrors: {
          findingsAcknowledged:
            'This version departs from the prescription or the limits: acknowledge the findings to approve it',
        },
      });
    }
    expect((await versions(breaking))[0]).toMatchObject({ state: 'awaiting_approval', findingsAcknowledged: null });
    const approved = await approve(breaking, planIds.stepLimit, { reviewedIn3d: true, findingsAcknowledged: true });
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await versions(breaking))[0]).toMatchObject({ state: 'approved', findingsAcknowledged: true });
    await t.app.auditWritten();
    const audit = await t.app.db.execute(
      sql`select action, outcome from audit_log where action = 'plan.approve' and target = ${`case:${breaking}/plan:${planIds.stepLimit}`} order by audit_id`,
    );
    // The refusals too: the one while the check was pending, the two unacknowledged.
    expect((audit as unknown as { rows: unknown[] }).rows).toEqual([
      { action: 'plan.approve', outcome: 'failure' },
      { action: 'plan.approve', outcome: 'failure' },
      { action: 'plan.approve', outcome: 'failure' },
      { action: 'plan.approve', outcome: 'success' },
    ]);
  });

  it('are an empty list for a plan that keeps to the prescription and the limits, approved without acknowledging', async () => {
    const caseId = await newCase();
    const planId = await upload(caseId, stages(keeping));
    await t.app.jobs.runDue();
    const [listed] = await versions(caseId);
    expect(listed).toMatchObject({ findings: [], findingsCheck: { state: 'complete', note: null } });
    const approved = await approve(caseId, planId);
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await versions(caseId))[0]).toMatchObject({ state: 'approved', findingsAcknowledged: null });
  });

  it('say so when the movements cannot be measured, and need that acknowledged too', async () => {
    const caseId = await newCase();
    // Each stage one fused shell: nothing to measure.
    const fused = [0, 1].map((stage) => ({ name: `upper_0${stage}.stl`, data: Buffer.from(scanStl(400, stage + 1)) }));
    const planId = await upload(caseId, fused, { ...summaryKeeping, upperStages: 1 });
    await t.app.jobs.runDue();
    const [listed] = await versions(caseId);
    expect(listed!.findings).toEqual([]);
    expect(listed!.findingsCheck.state).toBe('partial');
    expect(listed!.findingsCheck.note).toMatch(
      /^Upper arch: its tooth movements could not be measured \(.+\)\. Only the summary \(IPR, attachments\) was checked there; don't-move teeth, extractions and the step limit were not\.$/,
    );
    expect((await approve(caseId, planId)).statusCode).toBe(400);
    const approved = await approve(caseId, planId, { reviewedIn3d: true, findingsAcknowledged: true });
    expect(approved.statusCode, approved.body).toBe(200);
  });
});
