import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  asciiStl,
  binaryStl,
  caseFields,
  caseForm,
  createCaseDoctor,
  sha256,
  submitCase,
} from './helpers/case-factories.ts';
import { openEventStream, type EventStreamReader, type StreamedEvent } from './helpers/event-stream.ts';
import { createStaff, outboxMessages } from './helpers/factories.ts';
import { readableMail } from './helpers/mail.ts';
import { planForm, planSummaryOf, stageFiles, uploadPlan, zipOf } from './helpers/plan-factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { clockPastWrites } from './helpers/wait-until.ts';
import { sweepOrphanedPlanFiles } from '../src/services/plans/sweep-orphaned-plan-files.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/** docs/decisions/plans.md § Treatment plans: versions, uploads (loose STLs and ZIPs), the doctor's decisions. */
let t: TestApp;
let base: string;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let otherDoctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let staff: Awaited<ReturnType<typeof createStaff>>;
const streams: EventStreamReader[] = [];

beforeAll(async () => {
  t = await createTestApp({ events: { heartbeatMs: 500, sessionCheckMs: 1000 } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  doctor = await createCaseDoctor(t, { firstname: 'Grace', lastname: 'Hopper' });
  otherDoctor = await createCaseDoctor(t);
  staff = await createStaff(t, [1]);
}, scaled(60_000));
afterAll(async () => {
  for (const stream of streams) stream.close();
  await t?.close();
});

async function newCase(owner = doctor): Promise<number> {
  const created = await submitCase(t, owner.token, caseForm(caseFields(owner.clinicId)));
  expect(created.statusCode, created.body).toBe(200);
  return created.json<{ CaseId: number }>().CaseId;
}

async function countRows(): Promise<{ plans: number; files: number }> {
  const result = await t.app.db.execute(
    sql`select (select count(*)::int from treatment_plans) as plans, (select count(*)::int from plan_stage_files) as files`,
  );
  return (result as unknown as { rows: { plans: number; files: number }[] }).rows[0]!;
}

async function storedPlanFiles(): Promise<string[]> {
  const entries = await readdir(path.join(t.dataDir, 'files', 'plans'), { recursive: true, withFileTypes: true }).catch(
    () => [],
  );
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

async function tmpFiles(): Promise<string[]> {
  return readdir(path.join(t.dataDir, 'tmp')).catch(() => []);
}

/** A refused upload: its status, and that it left no rows, no stored file and no temporary file. */
async function expectRefused(caseId: number, form: FormData, status = 400) {
  const before = { rows: await countRows(), files: (await storedPlanFiles()).length };
  const response = await uploadPlan(t, staff.token, caseId, form);
  expect(response.statusCode, response.body).toBe(status);
  expect(await countRows()).toEqual(before.rows);
  expect((await storedPlanFiles()).length).toBe(before.files);
  expect(await tmpFiles()).toEqual([]);
  return response.json<{ message: string; fieldErrors?: Record<string, string> }>();
}

interface ListedPlan {
  planId: number;
  version: number;
  state: string;
  summary: Record<string, unknown>;
  comment: string | null;
  decidedByName: string | null;
  reviewedIn3d: boolean | null;
  stages: {
    stageFileId: number;
    arch: string;
    stage: number;
    fileName: string;
    size: number;
    sha256: string;
    url: string;
  }[];
}

const listPlans = async (token: string, caseId: number) => {
  const response = await t.as(token, { method: 'GET', url: `/api/case/${caseId}/plans` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ListedPlan[]>();
};

const decide = async (
  token: string | null,
  caseId: number,
  planId: number,
  action: 'approve' | 'request_changes',
  comment?: string,
) => {
  // An approval waits for the check against the prescription (plan-findings.test.ts): the movements measured.
  if (action === 'approve') await t.app.jobs.runDue();
  return t.as(token, {
    method: 'POST',
    url: `/api/case/${caseId}/plans/${planId}/${action}`,
    // Approving carries the doctor's tick that they reviewed the version in 3D, and that they read its findings.
    ...(comment !== undefined
      ? { payload: { comment } }
      : action === 'approve' && { payload: { reviewedIn3d: true, findingsAcknowledged: true } }),
  });
};

describe('POST /api/case/{caseId}/plans', () => {
  it('takes loose STLs named as planning software names them and lists them with their URLs', async () => {
    const caseId = await newCase();
    const names: Record<string, string> = {
      'upper-0': 'Maxillary_Stage_0.stl',
      'upper-1': 'Maxillary_Stage_1.stl',
      'upper-2': 'upper-02.stl',
      'lower-0': 'Mandibular Stage 00.stl',
      'lower-1': 'Subsetup1_Mandibular.stl',
      'lower-2': 'LOWER_2.STL',
    };
    const files = stageFiles(2, 2, (arch, stage) => names[`${arch}-${stage}`]!);
    files[0] = { ...files[0]!, data: asciiStl() };
    const response = await uploadPlan(t, staff.token, caseId, planForm(planSummaryOf(2, 2), files));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ version: 1, message: 'Plan version 1 uploaded' });

    const [plan] = await listPlans(doctor.token, caseId);
    expect(plan).toMatchObject({ version: 1, state: 'awaiting_approval', summary: planSummaryOf(2, 2), comment: null });
    expect(plan!.stages.map((file) => `${file.arch}${file.stage}:${file.fileName}`)).toEqual([
      'upper0:Maxillary_Stage_0.stl',
      'upper1:Maxillary_Stage_1.stl',
      'upper2:upper-02.stl',
      'lower0:Mandibular Stage 00.stl',
      'lower1:Subsetup1_Mandibular.stl',
      'lower2:LOWER_2.STL',
    ]);
    const first = plan!.stages[0]!;
    expect(first.sha256).toBe(sha256(asciiStl()));
    const download = await t.as(doctor.token, { method: 'GET', url: first.url });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(asciiStl())).toBe(true);
    expect(download.headers['cache-control']).toBe('private, no-store');
    expect(download.headers['content-type']).toBe('application/octet-stream');
    const range = await t.as(staff.token, { method: 'GET', url: first.url, headers: { range: 'bytes=0-4' } });
    expect(range.statusCode).toBe(206);
    expect(range.body).toBe('solid');
    // The case's access: another doctor gets 404, for the file and the list.
    expect((await t.as(otherDoctor.token, { method: 'GET', url: first.url })).statusCode).toBe(404);
    expect((await t.as(otherDoctor.token, { method: 'GET', url: `/api/case/${caseId}/plans` })).statusCode).toBe(404);
    expect((await t.as(null, { method: 'GET', url: first.url })).statusCode).toBe(401);

    const detail = await t.as(doctor.token, { method: 'GET', url: `/api/case/${caseId}` });
    expect(detail.json().planState).toBe('awaiting_approval');
  });

  it('takes one ZIP as planning software exports it: folders, __MACOSX and dot files ignored, traversal names kept as their basename', async () => {
    const caseId = await newCase();
    const entries = stageFiles(0, 2).map((file, index) => ({
      name: index === 0 ? `../../${file.name}` : `export/case 1/${file.name}`,
      data: file.data,
      stored: index === 1,
    }));
    const zip = zipOf([
      { name: 'export/', data: Buffer.alloc(0), stored: true },
      ...entries,
      { name: '__MACOSX/export/._lower_00.stl', data: Buffer.from('mac resource fork') },
      { name: 'export/.DS_Store', data: Buffer.from('finder') },
    ]);
    const response = await uploadPlan(
      t,
      staff.token,
      caseId,
      planForm(planSummaryOf(0, 2), [{ name: 'plan.zip', data: zip }]),
    );
    expect(response.statusCode, response.body).toBe(200);
    const [plan] = await listPlans(staff.token, caseId);
    expect(plan!.stages.map((file) => file.fileName)).toEqual(['lower_00.stl', 'lower_01.stl', 'lower_02.stl']);
    expect(plan!.stages.map((file) => file.sha256)).toEqual(stageFiles(0, 2).map((file) => sha256(file.data)));
    // Nothing was written outside storage's own server-made keys.
    const stored = await storedPlanFiles();
    expect(stored.every((name) => /^[0-9a-f]{24}$/.test(name))).toBe(true);
    expect(await readdir(path.join(t.dataDir, 'files')).catch(() => [])).not.toContain('lower_00.stl');
    expect(await tmpFiles()).toEqual([]);
  });

  it('refuses bad names, non-STL content and other files, naming each, and leaves nothing behind', async () => {
    const caseId = await newCase();
    const files = stageFiles(1, 0);
    const refused = await expectRefused(
      caseId,
      planForm(planSummaryOf(1, 0), [
        ...files,
        { name: 'final model.stl', data: binaryStl(2) },
        { name: 'upper_03.stl', data: Buffer.from('solid but no facets here') },
        { name: 'lower_01.stl', data: binaryStl(3, 9) },
        { name: 'notes.pdf', data: Buffer.from('%PDF-1.4') },
      ]),
    );
    expect(refused.fieldErrors?.stages).toContain('final model.stl: the name does not say the arch and stage');
    expect(refused.fieldErrors?.stages).toContain('upper_03.stl: not an STL model');
    expect(refused.fieldErrors?.stages).toContain('lower_01.stl: not an STL model');
    expect(refused.fieldErrors?.stages).toContain('notes.pdf: only STL files or one ZIP are accepted');
  });

  it('refuses files that do not cover exactly the declared stages: missing, extra, duplicate', async () => {
    const caseId = await newCase();
    const missing = await expectRefused(caseId, planForm(planSummaryOf(3, 0), stageFiles(2, 0)));
    expect(missing.fieldErrors?.stages).toBe('Missing upper stages: 3');
    const extra = await expectRefused(caseId, planForm(planSummaryOf(1, 0), stageFiles(1, 1)));
    expect(extra.fieldErrors?.stages).toMatch(
      /lower stages not in the summary, which declares no lower stages: 0 \(lower_00\.stl\)/,
    );
    const duplicate = await expectRefused(
      caseId,
      planForm(planSummaryOf(1, 0), [...stageFiles(1, 0), { name: 'Maxillary Stage 1.stl', data: binaryStl(5) }]),
    );
    expect(duplicate.fieldErrors?.stages).toBe(
      'upper stage 1 sent more than once: upper_01.stl, Maxillary Stage 1.stl',
    );
  });

  it('refuses a summary that is missing, not JSON or invalid, with field errors', async () => {
    const caseId = await newCase();
    expect((await expectRefused(caseId, planForm(undefined, stageFiles(1, 0)))).fieldErrors).toEqual({
      summary: 'The plan summary is required',
    });
    expect((await expectRefused(caseId, planForm('{not json', stageFiles(1, 0)))).fieldErrors).toEqual({
      summary: 'The plan summary must be JSON',
    });
    const invalid = await expectRefused(
      caseId,
      planForm(
        {
          upperStages: 100,
          lowerStages: 0,
          ipr: [{ contact: '11-13', amountMm: 2 }],
          attachmentTeeth: [19],
          notes: 'x'.repeat(5001),
        },
        stageFiles(1, 0),
      ),
    );
    expect(invalid.fieldErrors).toMatchObject({
      upperStages: 'Upper stages must be a whole number from 0 to 99',
      'ipr.0.contact': 'Contact must be two adjacent teeth in FDI, e.g. 11-21',
      'ipr.0.amountMm': 'IPR amount must be from 0.1 to 1.0 mm',
      'attachmentTeeth.0': 'Attachment teeth must be FDI tooth numbers',
      notes: 'Notes are at most 5000 characters',
    });
    const misplaced = await expectRefused(
      caseId,
      planForm(
        planSummaryOf(1, 0, {
          attachmentStages: [
            { tooth: 24, stage: 1 },
            { tooth: 13, stage: 2 },
          ],
        }),
        stageFiles(1, 0),
      ),
    );
    expect(misplaced.fieldErrors).toEqual({
      'attachmentStages.0.tooth': 'Attachment stages must name attachment teeth, each once',
      'attachmentStages.1.stage': "Attachment on 13 is placed after its arch's last stage (1)",
    });
    expect((await expectRefused(caseId, planForm(planSummaryOf(0, 0), []))).fieldErrors?.upperStages).toBe(
      'At least one arch needs stages',
    );
    expect((await expectRefused(caseId, planForm(planSummaryOf(1, 0), []))).fieldErrors?.stages).toBe(
      'Missing upper stages: 0, 1',
    );
  });

  it('refuses a ZIP bomb by its ratio as it unpacks, too many entries, a lying size and a broken archive', async () => {
    const caseId = await newCase();
    const bomb = zipOf([
      ...stageFiles(1, 0).map((file) => ({ name: file.name, data: file.data })),
      { name: 'upper_02.stl', data: Buffer.alloc(20 * 1024 * 1024) },
    ]);
    expect(bomb.length).toBeLessThan(100 * 1024);
    const refusedBomb = await expectRefused(caseId, planForm(planSummaryOf(2, 0), [{ name: 'plan.zip', data: bomb }]));
    expect(refusedBomb.message).toMatch(/compression ratio over 100:1/);

    const many = zipOf(Array.from({ length: 401 }, (_, index) => ({ name: `upper_${index}.stl`, data: binaryStl(1) })));
    const refusedMany = await expectRefused(caseId, planForm(planSummaryOf(2, 0), [{ name: 'plan.zip', data: many }]));
    expect(refusedMany.message).toBe('The ZIP has 401 entries; at most 400 are allowed');

    const lying = zipOf(stageFiles(1, 0).map((file) => ({ name: file.name, data: file.data, declaredSize: 10 })));
    expect(
      (await expectRefused(caseId, planForm(planSummaryOf(1, 0), [{ name: 'plan.zip', data: lying }]))).message,
    ).toMatch(/^The ZIP cannot be read/);
    const broken = await expectRefused(
      caseId,
      planForm(planSummaryOf(1, 0), [{ name: 'plan.zip', data: Buffer.from('PK\x03\x04 not really') }]),
    );
    expect(broken.message).toMatch(/^The ZIP cannot be read/);
    const both = await expectRefused(
      caseId,
      planForm(planSummaryOf(1, 0), [...stageFiles(1, 0), { name: 'plan.zip', data: zipOf([]) }]),
    );
    expect(both.message).toBe('Send either STL files or one ZIP of them, not both');
  });

  it('refuses a ZIP whose entries each stay under the ratio grace but unpack far past the whole archive (issue 20)', async () => {
    const caseId = await newCase();
    // Binary STLs of zeros just under 1 MiB each: every entry alone is within the 1 MiB grace.
    const triangles = Math.floor((1024 * 1024 - 84) / 50);
    const zeros = () => {
      const data = Buffer.alloc(84 + 50 * triangles);
      data.writeUInt32LE(triangles, 80);
      return data;
    };
    const entries = stageFiles(20, 20).map((file) => ({ name: file.name, data: zeros() }));
    const archive = zipOf(entries);
    const unpacked = entries.reduce((sum, entry) => sum + entry.data.length, 0);
    expect(archive.length * 100).toBeLessThan(unpacked);
    const refused = await expectRefused(caseId, planForm(planSummaryOf(20, 20), [{ name: 'plan.zip', data: archive }]));
    expect(refused.message).toMatch(/compression ratio over 100:1/);
  });

  it('keeps the upload under MAX_UPLOAD_BYTES (413) with nothing left behind', async () => {
    const small = await createTestApp({ maxUploadBytes: 2000 });
    try {
      const owner = await createCaseDoctor(small);
      const lab = await createStaff(small, [1]);
      const created = await submitCase(small, owner.token, caseForm(caseFields(owner.clinicId)));
      const caseId = created.json<{ CaseId: number }>().CaseId;
      const big = zipOf([
        { name: 'upper_00.stl', data: binaryStl(100) },
        { name: 'upper_01.stl', data: binaryStl(100) },
      ]);
      const response = await uploadPlan(
        small,
        lab.token,
        caseId,
        planForm(planSummaryOf(1, 0), [{ name: 'p.zip', data: big }]),
      );
      expect(response.statusCode, response.body).toBe(413);
      const files = await readdir(path.join(small.dataDir, 'files', 'plans'), {
        recursive: true,
        withFileTypes: true,
      }).catch(() => []);
      expect(files.filter((entry) => entry.isFile())).toEqual([]);
      expect(await readdir(path.join(small.dataDir, 'tmp')).catch(() => [])).toEqual([]);
    } finally {
      await small.close();
    }
  });

  it('sweeps stage models no row refers to (a process killed mid-upload) at start, and keeps the others', async () => {
    const caseId = await newCase();
    const uploaded = await uploadPlan(t, staff.token, caseId, planForm(planSummaryOf(1, 0), stageFiles(1, 0)));
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const before = await storedPlanFiles();
    await t.app.storage.put('plans/killed-upload/0123456789abcdef01234567', binaryStl(3), 'application/octet-stream');
    await clockPastWrites();
    expect(await sweepOrphanedPlanFiles(t.app, { graceSeconds: 3600 })).toBe(0);
    expect(await sweepOrphanedPlanFiles(t.app, { graceSeconds: 0 })).toBe(1);
    expect((await storedPlanFiles()).sort()).toEqual(before.sort());
    const [plan] = await listPlans(doctor.token, caseId);
    for (const stage of plan!.stages) {
      expect((await t.as(doctor.token, { method: 'GET', url: stage.url })).statusCode).toBe(200);
    }
  });

  it('is for Dashboard staff: a doctor gets 403, anonymous 401, an unknown case 404', async () => {
    const caseId = await newCase();
    const form = () => planForm(planSummaryOf(1, 0), stageFiles(1, 0));
    expect((await uploadPlan(t, doctor.token, caseId, form())).statusCode).toBe(403);
    expect((await uploadPlan(t, null, caseId, form())).statusCode).toBe(401);
    expect((await uploadPlan(t, staff.token, 999_999, form())).statusCode).toBe(404);
  });
});

describe("the doctor's decision", () => {
  it('supersedes the last version with a new one; only the awaiting version can be decided; only by the case doctor', async () => {
    const caseId = await newCase();
    const v1 = (await uploadPlan(t, staff.token, caseId, planForm(planSummaryOf(1, 0), stageFiles(1, 0)))).json<{
      planId: number;
    }>();

    expect((await decide(staff.token, caseId, v1.planId, 'approve')).statusCode).toBe(403);
    expect((await decide(otherDoctor.token, caseId, v1.planId, 'approve')).statusCode).toBe(404);
    expect((await decide(null, caseId, v1.planId, 'approve')).statusCode).toBe(401);
    expect((await decide(doctor.token, caseId, 999_999, 'approve')).statusCode).toBe(404);
    const blank = await decide(doctor.token, caseId, v1.planId, 'request_changes', '   ');
    expect(blank.statusCode).toBe(400);
    expect(blank.json().fieldErrors).toEqual({ comment: 'A comment is required to request changes' });
    expect((await decide(doctor.token, caseId, v1.planId, 'request_changes')).statusCode).toBe(400);

    const changes = await decide(doctor.token, caseId, v1.planId, 'request_changes', ' Intrude 11 more ');
    expect(changes.statusCode, changes.body).toBe(200);
    let detail = await t.as(staff.token, { method: 'GET', url: `/api/case/${caseId}` });
    expect(detail.json().planState).toBe('changes_requested');
    const again = await decide(doctor.token, caseId, v1.planId, 'approve');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This plan version has already been decided');

    const v2 = (await uploadPlan(t, staff.token, caseId, planForm(planSummaryOf(2, 0), stageFiles(2, 0)))).json<{
      planId: number;
      version: number;
    }>();
    expect(v2.version).toBe(2);
    const v3 = (await uploadPlan(t, staff.token, caseId, planForm(planSummaryOf(1, 1), stageFiles(1, 1)))).json<{
      planId: number;
      version: number;
    }>();
    expect(v3.version).toBe(3);
    const listed = await listPlans(doctor.token, caseId);
    expect(listed.map((plan) => [plan.version, plan.state])).toEqual([
      [3, 'awaiting_approval'],
      [2, 'superseded'],
      // A decided version is superseded as well; its decision and comment stay on it.
      [1, 'superseded'],
    ]);
    expect(listed[2]).toMatchObject({ comment: 'Intrude 11 more', decidedByName: 'Grace Hopper' });
    const superseded = await decide(doctor.token, caseId, v2.planId, 'approve');
    expect(superseded.statusCode).toBe(409);
    expect(superseded.json().message).toBe('This plan version has been superseded by a newer one');

    // Approval needs the doctor's tick that they reviewed the version in 3D, and records it.
    for (const payload of [undefined, {}, { reviewedIn3d: false }, { reviewedIn3d: 'yes' }]) {
      const unticked = await t.as(doctor.token, {
        method: 'POST',
        url: `/api/case/${caseId}/plans/${v3.planId}/approve`,
        ...(payload && { payload }),
      });
      expect(unticked.statusCode, JSON.stringify(payload)).toBe(400);
      if (payload)
        expect(unticked.json().fieldErrors).toEqual({ reviewedIn3d: 'Confirm that you have reviewed this plan in 3D' });
    }
    expect((await listPlans(doctor.token, caseId))[0]).toMatchObject({
      state: 'awaiting_approval',
      reviewedIn3d: null,
    });
    expect((await decide(doctor.token, caseId, v3.planId, 'approve')).statusCode).toBe(200);
    detail = await t.as(doctor.token, { method: 'GET', url: `/api/case/${caseId}` });
    expect(detail.json().planState).toBe('approved');
    expect((await listPlans(doctor.token, caseId)).map((plan) => plan.reviewedIn3d)).toEqual([true, null, null]);

    // Audit rows are written once the answer is sent: the last one may land a moment later.
    await vi.waitFor(
      async () => {
        const audit = await t.app.db.execute(
          sql`select action, target, outcome from audit_log where action like 'plan.%' and target like ${`case:${caseId}/%`} order by audit_id`,
        );
        const rows = (audit as unknown as { rows: { action: string; outcome: string }[] }).rows;
        expect(rows.filter((row) => row.outcome === 'success').map((row) => row.action)).toEqual([
          'plan.upload',
          'plan.request_changes',
          'plan.upload',
          'plan.upload',
          'plan.approve',
        ]);
      },
      { timeout: scaled(5000), interval: 50 },
    );
  });

  it('queues "a treatment plan is ready for your review" for the doctor, linking the case', async () => {
    const caseId = await newCase();
    await uploadPlan(t, staff.token, caseId, planForm(planSummaryOf(1, 0), stageFiles(1, 0)));
    const result = await t.app.db.execute(
      sql`select recipient from mail_outbox where template = 'planReady' order by mail_id desc limit 1`,
    );
    expect((result as unknown as { rows: { recipient: string }[] }).rows).toEqual([{ recipient: doctor.email }]);
    // Read as the doctor gets it: the outbox, kicked by the upload, may have sent it already
    // (a sent row keeps no variables).
    await t.app.outbox.deliverDue();
    const sent = (await outboxMessages(t))
      .map(readableMail)
      .filter((raw) => raw.includes(`To: ${doctor.email}`) && raw.includes(`http://portal.test/cases/${caseId}`))
      .filter((raw) => raw.includes('A treatment plan is ready for your review'));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('A treatment plan is ready for your review: version 1 of case');
  });
});

describe('dispatch, tiles, list filter, timeline and live events', () => {
  it('refuses to dispatch a case without an approved plan (409), then dispatches it once approved', async () => {
    const caseId = await newCase();
    const dispatch = () =>
      t.as(staff.token, {
        method: 'PUT',
        url: `/api/case/status/${caseId}`,
        payload: { status: 'dispatched', courier: 'DHL', trackingNumber: 'JD0146' },
      });
    const before = await dispatch();
    expect(before.statusCode).toBe(409);
    expect(before.json().message).toBe(
      'The treatment plan must be approved by the doctor before the case is dispatched',
    );
    const v1 = (await uploadPlan(t, staff.token, caseId, planForm(planSummaryOf(1, 0), stageFiles(1, 0)))).json<{
      planId: number;
    }>();
    expect((await dispatch()).statusCode).toBe(409);
    await decide(doctor.token, caseId, v1.planId, 'approve');
    const after = await dispatch();
    expect(after.statusCode, after.body).toBe(200);
  });

  it('counts the plan tiles in the caller scope and filters the list by plan state', async () => {
    const owner = await createCaseDoctor(t);
    const awaiting = await newCase(owner);
    const sentBack = await newCase(owner);
    await newCase(owner);
    await uploadPlan(t, staff.token, awaiting, planForm(planSummaryOf(1, 0), stageFiles(1, 0)));
    const back = (await uploadPlan(t, staff.token, sentBack, planForm(planSummaryOf(1, 0), stageFiles(1, 0)))).json<{
      planId: number;
    }>();
    expect((await decide(owner.token, sentBack, back.planId, 'request_changes', 'Less expansion')).statusCode).toBe(
      200,
    );

    const mine = await t.as(owner.token, { method: 'GET', url: `/api/case/get_all_stats/0` });
    expect(mine.json()).toEqual([
      { newcases: 3, total: 3, inprogress: 0, dispatched: 0, delivered: 0, awaitingApproval: 1, changesRequested: 1 },
    ]);
    const all = await t.as(staff.token, { method: 'GET', url: `/api/case/get_all_stats/0` });
    expect(all.json()[0].awaitingApproval).toBeGreaterThanOrEqual(1);

    const filtered = await t.as(owner.token, {
      method: 'GET',
      url: `/api/case/get_cases_by_status/all/0?planState=awaiting_approval&page=1&pageSize=10`,
    });
    expect(filtered.json<{ CaseId: number }[]>().map((row) => row.CaseId)).toEqual([awaiting]);
    expect(filtered.headers['x-total-count']).toBe('1');
    const changes = await t.as(staff.token, {
      method: 'GET',
      url: `/api/case/get_cases_by_status/all/${owner.userId}?planState=changes_requested`,
    });
    expect(changes.json<{ CaseId: number }[]>().map((row) => row.CaseId)).toEqual([sentBack]);
    expect(changes.headers['x-total-count']).toBe('1');
    const bad = await t.as(staff.token, { method: 'GET', url: `/api/case/get_cases_by_status/all/0?planState=maybe` });
    expect(bad.statusCode).toBe(400);
  });

  it('puts plan versions and decisions on the timeline, oldest first', async () => {
    const caseId = await newCase();
    const v1 = (await uploadPlan(t, staff.token, caseId, planForm(planSummaryOf(1, 0), stageFiles(1, 0)))).json<{
      planId: number;
    }>();
    // Two pinned comments, one removed: the change request sends the other, pin 1.
    const pin = (text: string) =>
      t.as(doctor.token, {
        method: 'POST',
        url: `/api/case/${caseId}/plans/${v1.planId}/comments`,
        payload: { stage: 1, arch: 'upper', point: [0, 0, 0], text },
      });
    await pin('Less torque');
    const removed = (await pin('Never mind')).json<{ commentId: number }>();
    await t.as(doctor.token, {
      method: 'DELETE',
      url: `/api/case/${caseId}/plans/${v1.planId}/comments/${removed.commentId}`,
    });
    await decide(doctor.token, caseId, v1.planId, 'request_changes', 'Rotate 13');
    const v2 = (await uploadPlan(t, staff.token, caseId, planForm(planSummaryOf(1, 0), stageFiles(1, 0)))).json<{
      planId: number;
    }>();
    await decide(doctor.token, caseId, v2.planId, 'approve');
    const timeline = await t.as(doctor.token, { method: 'GET', url: `/api/case/${caseId}/timeline` });
    const entries = timeline.json<{ kind: string; at: string; [key: string]: unknown }[]>();
    expect(entries.map((entry) => entry.kind)).toEqual(['created', 'plan', 'plan_decision', 'plan', 'plan_decision']);
    expect(entries[1]).toMatchObject({ planId: v1.planId, version: 1, by: staff.userId, byName: 'Sam Staff' });
    expect(entries[2]).toMatchObject({
      version: 1,
      decision: 'changes_requested',
      comment: 'Rotate 13',
      byName: 'Grace Hopper',
      // The plan's two teeth are measured only once its copy's job runs: no nearest tooth yet.
      pinned: [{ number: 1, stage: 1, tooth: null, text: 'Less torque' }],
    });
    expect(entries[4]).toMatchObject({ version: 2, decision: 'approved', comment: null, by: doctor.userId });
    const times = entries.map((entry) => entry.at);
    expect([...times].sort()).toEqual(times);
  });

  it("streams case.plan to the case's doctor and to staff, never to another doctor", async () => {
    const caseId = await newCase();
    const open = async (token: string) => {
      const reader = await openEventStream(`${base}/api/events`, { authorization: `Bearer ${token}` });
      streams.push(reader);
      return reader;
    };
    const own = await open(doctor.token);
    const lab = await open(staff.token);
    const other = await open(otherDoctor.token);
    const v1 = (await uploadPlan(t, staff.token, caseId, planForm(planSummaryOf(1, 0), stageFiles(1, 0)))).json<{
      planId: number;
    }>();
    await decide(doctor.token, caseId, v1.planId, 'approve');
    const planOf = (state: string) => (event: StreamedEvent) =>
      event.type === 'case.plan' &&
      (event.data as { caseId: number; state: string }).caseId === caseId &&
      (event.data as { state: string }).state === state;
    const uploaded = await own.waitFor(planOf('awaiting_approval'));
    expect(uploaded.data).toMatchObject({ caseId, planId: v1.planId, version: 1, state: 'awaiting_approval' });
    expect(Object.keys(uploaded.data as object).sort()).toEqual(['at', 'caseId', 'planId', 'state', 'version']);
    await own.waitFor(planOf('approved'));
    await lab.waitFor(planOf('awaiting_approval'));
    await lab.waitFor(planOf('approved'));
    // The other doctor's stream was open throughout; the staff stream has both by now.
    expect(other.events.filter((event) => event.type === 'case.plan')).toEqual([]);
  });
});
