import { randomBytes } from 'node:crypto';
import type { AuditEntry } from '@portal/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  caseAttachments,
  caseDrafts,
  caseMessageFiles,
  caseMessages,
  cases,
  pages,
  passkeys,
  planComments,
  planShares,
  planStageFiles,
} from '../src/db/schema.ts';
import { caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import { createStaff, makeImage, uniqueName } from './helpers/factories.ts';
import { planForm, planSummaryOf, stageFiles, uploadPlan } from './helpers/plan-factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * GET /api/audit labels each target with what it names, as it reads now (issue 24): every
 * target shape the routes write (grep `target:`, `paramTarget(` and `auditDetail` in
 * apps/server/src), a record that is gone, and no patient name.
 */

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

const hex = () => randomBytes(8).toString('hex');

/** The records every target shape names, made through the API where it is cheap and inserted where not. */
async function makeRecords() {
  const doctor = await createCaseDoctor(t);
  const staff = await createStaff(t, [1]);
  const form = caseForm(caseFields(doctor.clinicId, { firstname: 'Zebulon', lastname: 'Quixote' }), {
    front: { data: await makeImage(), name: 'Zebulon Quixote front.png', type: 'image/png' },
  });
  const submitted = await submitCase(t, doctor.token, form);
  expect(submitted.statusCode, submitted.body).toBe(200);
  const caseId = submitted.json<{ CaseId: number }>().CaseId;
  const db = t.app.db;
  const [{ trackingNo }] = (await db
    .select({ trackingNo: cases.trackingNo })
    .from(cases)
    .where(eq(cases.caseId, caseId))) as [{ trackingNo: string }];
  const [attachment] = await db.select().from(caseAttachments).where(eq(caseAttachments.caseId, caseId));

  const uploaded = await uploadPlan(t, admin, caseId, planForm(planSummaryOf(1, 1), stageFiles(1, 1)));
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  const plan = uploaded.json<{ planId: number; version: number }>();
  const [stageFile] = await db
    .select()
    .from(planStageFiles)
    .where(and(eq(planStageFiles.planId, plan.planId), eq(planStageFiles.arch, 'lower'), eq(planStageFiles.stage, 1)));
  const [comment] = await db
    .insert(planComments)
    .values({ planId: plan.planId, authorId: doctor.userId, stage: 1, arch: 'upper', point: [0, 0, 0], text: 'x' })
    .returning();
  const [share] = await db
    .insert(planShares)
    .values({ planId: plan.planId, createdBy: doctor.userId, tokenHash: hex(), expiresAt: new Date(Date.now() + 1e9) })
    .returning();
  const [message] = await db
    .insert(caseMessages)
    .values({ caseId, authorUserId: doctor.userId, side: 'doctor', body: 'see file' })
    .returning();
  const [messageFile] = await db
    .insert(caseMessageFiles)
    .values({
      messageId: message!.messageId,
      caseId,
      fileName: 'Zebulon x-ray.png',
      storageKey: `test/${hex()}`,
      contentType: 'image/png',
      fileSize: 1,
      sha256: hex(),
    })
    .returning();
  const passkey = async (name: string) =>
    (
      await db
        .insert(passkeys)
        .values({ userId: staff.userId, credentialId: hex(), publicKey: hex(), name })
        .returning()
    )[0]!.passkeyId;
  const draft = async () =>
    (await db.insert(caseDrafts).values({ ownerUserId: doctor.userId, fields: {}, files: {} }).returning())[0]!.draftId;
  const [page] = await db.select().from(pages).where(eq(pages.pageId, 1));
  return {
    doctor,
    staff,
    caseId,
    trackingNo,
    attachmentId: attachment!.attachmentId,
    plan,
    stageFileId: stageFile!.stageFileId,
    commentId: comment!.commentId,
    shareId: share!.shareId,
    messageFileId: messageFile!.fileId,
    passkeyId: await passkey('Desk key'),
    removedPasskeyId: await passkey('Lost key'),
    draftId: await draft(),
    removedDraftId: await draft(),
    pageName: page!.pageName,
  };
}

describe('GET /api/audit › TargetLabel', () => {
  it('names what every target shape points at, marks what is gone as deleted, and holds no patient name', async () => {
    const r = await makeRecords();
    const deletedStaff = await createStaff(t, [1]);
    expect((await t.as(admin, { method: 'DELETE', url: `/api/user/delete/${deletedStaff.userId}` })).statusCode).toBe(
      200,
    );
    await t.app.db.delete(passkeys).where(eq(passkeys.passkeyId, r.removedPasskeyId));
    await t.app.db.delete(caseDrafts).where(eq(caseDrafts.draftId, r.removedDraftId));

    const ofCase = `Case ${r.trackingNo}`;
    const planV = `plan v${r.plan.version}`;
    const expected: Record<string, string | null> = {
      [`case:${r.caseId}`]: ofCase,
      [`case:${r.caseId}/attachment:${r.attachmentId}`]: `${ofCase} › file Front`,
      // A refused download names the file alone (routes/cases, paramTarget).
      [`attachment:${r.attachmentId}`]: `${ofCase} › file Front`,
      [`case:${r.caseId}/files.zip`]: `${ofCase} › all files (ZIP)`,
      [`case:${r.caseId}/plan:${r.plan.planId}`]: `${ofCase} › ${planV}`,
      [`case:${r.caseId}/plan:${r.plan.planId}/comment:${r.commentId}`]: `${ofCase} › ${planV} › comment ${r.commentId}`,
      [`case:${r.caseId}/plan:${r.plan.planId}/share:${r.shareId}`]: `${ofCase} › ${planV} › patient link ${r.shareId}`,
      [`case:${r.caseId}/plan_file:${r.stageFileId}`]: `${ofCase} › ${planV} › lower stage 1`,
      [`plan_file:${r.stageFileId}`]: `${ofCase} › ${planV} › lower stage 1`,
      [`case:${r.caseId}/message_file:${r.messageFileId}`]: `${ofCase} › message file ${r.messageFileId}`,
      [`message_file:${r.messageFileId}`]: `${ofCase} › message file ${r.messageFileId}`,
      [`user:${r.staff.userId}`]: `User ${r.staff.username} (Sam Staff)`,
      [`doctor:${r.doctor.doctorId}`]: `Doctor ${r.doctor.username} (Ada Lovelace)`,
      [`role:${r.staff.roleId}`]: expect.stringMatching(/^Role 'role\w+'$/),
      [`role:${r.staff.roleId}/page:1`]: expect.stringMatching(new RegExp(`^Role 'role\\w+' › page '${r.pageName}'$`)),
      [`passkey:${r.passkeyId}`]: `Passkey 'Desk key' of ${r.staff.username}`,
      [`draft:${r.draftId}`]: `Draft ${r.draftId} of ${r.doctor.username}`,
      // Gone, or not where the target puts it.
      [`user:${deletedStaff.userId}`]: `User ${deletedStaff.username} (Sam Staff) (deleted)`,
      [`passkey:${r.removedPasskeyId}`]: `passkey:${r.removedPasskeyId} (deleted)`,
      [`draft:${r.removedDraftId}`]: `draft:${r.removedDraftId} (deleted)`,
      'role:2147483647/page:1': 'role:2147483647/page:1 (deleted)',
      'case:9999999999': 'case:9999999999 (deleted)',
      [`case:${r.caseId + 1_000_000}/attachment:${r.attachmentId}`]: `case:${r.caseId + 1_000_000}/attachment:${r.attachmentId} (deleted)`,
      // Not a record: a refused request's path, a count of refusals, no target.
      '/api/case/12': null,
      '3 more refused without a session within 60 s, the last /api/case/12': null,
      'case:abc': null,
    };
    const actor = uniqueName('labels');
    await t.app.db.insert(auditLog).values(
      [...Object.keys(expected), null].map((target, index) => ({
        actorName: actor,
        actorUserId: null,
        action: 'case.view',
        target,
        outcome: 'success' as const,
        statusCode: 200,
        address: '203.0.113.24',
        requestId: `labels-${index}`,
        at: new Date(Date.now() - index * 1000),
      })),
    );

    const answer = await t.as(admin, { method: 'GET', url: `/api/audit?actor=${actor}&pageSize=30` });
    expect(answer.statusCode, answer.body).toBe(200);
    const rows = answer.json<AuditEntry[]>();
    expect(rows).toHaveLength(Object.keys(expected).length + 1);
    const labels = Object.fromEntries(
      rows.filter((row) => row.Target !== null).map((row) => [row.Target, row.TargetLabel]),
    );
    expect(labels).toEqual(expected);
    expect(rows.find((row) => row.Target === null)?.TargetLabel).toBeNull();
    const everyLabel = JSON.stringify(rows.map((row) => row.TargetLabel));
    expect(everyLabel).not.toMatch(/Zebulon|Quixote|x-ray|front\.png/);
  });
});
