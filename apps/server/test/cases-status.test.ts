import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import { createStaff, outboxMessages } from './helpers/factories.ts';
import { approvedPlan, planForm, planSummaryOf, stageFiles, uploadPlan } from './helpers/plan-factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let staff: Awaited<ReturnType<typeof createStaff>>;
let caseId: number;
let trackingNo: string;

beforeAll(async () => {
  t = await createTestApp();
  doctor = await createCaseDoctor(t, { firstname: 'Rosalind', lastname: 'Franklin' });
  staff = await createStaff(t, [1]);
  const created = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId)));
  ({ CaseId: caseId, TrackingNo: trackingNo } = created.json<{ CaseId: number; TrackingNo: string }>());
});
afterAll(() => t.close());

const setStatus = (token: string, status: string, id = caseId) =>
  t.as(token, { method: 'PUT', url: `/api/case/status/${id}`, payload: { status } });

async function queuedMail(): Promise<{ recipient: string; template: string; variables: Record<string, string> }[]> {
  const result = await t.app.db.execute(
    sql`select recipient, template, variables from mail_outbox where template = 'caseStatus' order by mail_id`,
  );
  return (result as unknown as { rows: { recipient: string; template: string; variables: Record<string, string> }[] })
    .rows;
}

describe('PUT /case/status/{caseId}', () => {
  it('lets Dashboard staff move a case, keeps the history and e-mails the doctor', async () => {
    const response = await setStatus(staff.token, 'inprogress');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe('Case status changed to In Progress');
    const admin = await t.adminToken();
    // Dispatch needs the doctor's approved plan (docs/decisions/plans.md § Treatment plans).
    await approvedPlan(t, staff.token, doctor.token, caseId);
    const dispatch = await t.as(admin, {
      method: 'PUT',
      url: `/api/case/status/${caseId}`,
      payload: { status: 'dispatched', courier: 'DHL', trackingNumber: 'JD014600006' },
    });
    expect(dispatch.statusCode, dispatch.body).toBe(200);

    const history = await t.as(doctor.token, { method: 'GET', url: `/api/case/get_case_history/${caseId}` });
    expect(history.json()).toMatchObject([
      { FromStatus: null, ToStatus: 'new', ChangedBy: doctor.userId, ChangedByName: 'Rosalind Franklin' },
      { FromStatus: 'new', ToStatus: 'inprogress', ChangedBy: staff.userId, ChangedByName: 'Sam Staff' },
      { FromStatus: 'inprogress', ToStatus: 'dispatched' },
    ]);
    for (const entry of history.json<{ ChangedAt: string }[]>())
      expect(Date.parse(entry.ChangedAt)).toBeGreaterThan(Date.now() - 60_000);

    const mail = await queuedMail();
    expect(mail).toHaveLength(2);
    expect(mail[0]).toMatchObject({ recipient: doctor.email, template: 'caseStatus' });
    await t.app.outbox.deliverDue();
    const sent = (await outboxMessages(t)).filter((message) => message.includes(trackingNo));
    expect(sent.some((message) => message.includes(`Case ${trackingNo} is now In Progress`))).toBe(true);
    expect(sent.some((message) => message.includes(`Case ${trackingNo} is now Dispatched`))).toBe(true);
    // The mail links to the case's own page.
    expect(sent.every((message) => message.includes(`${t.app.config.publicUrl}/cases/${caseId}`))).toBe(true);

    const stats = await t.as(doctor.token, { method: 'GET', url: `/api/case/get_all_stats/${doctor.userId}` });
    expect(stats.json()).toEqual([
      { newcases: 0, total: 1, inprogress: 0, dispatched: 1, delivered: 0, awaitingApproval: 0, changesRequested: 0 },
    ]);
    const dispatched = await t.as(doctor.token, { method: 'GET', url: `/api/case/get_cases_by_status/dispatched/0` });
    expect(dispatched.json<{ CaseId: number; Status: string }[]>()).toMatchObject([
      { CaseId: caseId, Status: 'dispatched' },
    ]);
  });

  it('answers 409 for the status the case already has, with no history row and no mail', async () => {
    const historyBefore = (
      await t.as(staff.token, { method: 'GET', url: `/api/case/get_case_history/${caseId}` })
    ).json<unknown[]>().length;
    const mailBefore = (await queuedMail()).length;
    const same = await t.as(staff.token, {
      method: 'PUT',
      url: `/api/case/status/${caseId}`,
      payload: { status: 'dispatched', courier: 'DHL', trackingNumber: 'JD014600006' },
    });
    expect(same.statusCode).toBe(409);
    expect(same.json().message).toBe('The case is already Dispatched');
    expect(
      (await t.as(staff.token, { method: 'GET', url: `/api/case/get_case_history/${caseId}` })).json(),
    ).toHaveLength(historyBefore);
    expect(await queuedMail()).toHaveLength(mailBefore);
  });

  it('refuses doctors, staff without the Dashboard page, unknown statuses and unknown cases', async () => {
    expect((await setStatus(doctor.token, 'delivered')).statusCode).toBe(403);
    const addCaseOnly = await createStaff(t, [6]);
    expect((await setStatus(addCaseOnly.token, 'delivered')).statusCode).toBe(403);
    const bad = await setStatus(staff.token, 'closed');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual({ status: 'Status is not valid' });
    expect((await setStatus(staff.token, 'delivered', 999_999)).statusCode).toBe(404);
    const status = await t.as(staff.token, { method: 'GET', url: `/api/case/get_cases_by_status/all/0` });
    expect(status.json<{ Status: string }[]>()[0]!.Status).toBe('dispatched');
  });
});

describe('leaving the lab needs the approved plan, for Dispatched and Delivered alike', () => {
  const historyOf = async (id: number) =>
    (await t.as(staff.token, { method: 'GET', url: `/api/case/get_case_history/${id}` })).json<unknown[]>();
  const statusOf = async (id: number) =>
    (await t.as(staff.token, { method: 'GET', url: `/api/case/${id}` })).json<{ Status: string }>().Status;
  const newCase = async () =>
    (await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId)))).json<{ CaseId: number }>().CaseId;
  const move = (id: number, payload: Record<string, unknown>) =>
    t.as(staff.token, { method: 'PUT', url: `/api/case/status/${id}`, payload });

  it('refuses New or In Progress to Delivered without an approved plan, leaving no row and no mail', async () => {
    const id = await newCase();
    const mailBefore = (await queuedMail()).length;
    const refused = await move(id, { status: 'delivered' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'The treatment plan must be approved by the doctor before the case is delivered',
    );
    expect(await historyOf(id)).toHaveLength(1);
    expect(await queuedMail()).toHaveLength(mailBefore);
    expect(await statusOf(id)).toBe('new');

    expect((await move(id, { status: 'inprogress' })).statusCode).toBe(200);
    // A plan awaiting approval is not enough either.
    expect((await uploadPlan(t, staff.token, id, planForm(planSummaryOf(1, 0), stageFiles(1, 0)))).statusCode).toBe(
      200,
    );
    expect((await move(id, { status: 'delivered' })).statusCode).toBe(409);
    expect(await statusOf(id)).toBe('inprogress');
  });

  it('lets an approved case skip to Delivered, and does not ask again once the case has left', async () => {
    const id = await newCase();
    await approvedPlan(t, staff.token, doctor.token, id);
    const delivered = await move(id, { status: 'delivered' });
    expect(delivered.statusCode, delivered.body).toBe(200);
    // A newer version uploaded afterwards (awaiting approval) does not hold back what was already made.
    expect((await uploadPlan(t, staff.token, id, planForm(planSummaryOf(1, 0), stageFiles(1, 0)))).statusCode).toBe(
      200,
    );
    const back = await move(id, {
      status: 'dispatched',
      reason: 'Courier lost it',
      courier: 'DHL',
      trackingNumber: 'JD1',
    });
    expect(back.statusCode, back.body).toBe(200);
    expect((await move(id, { status: 'delivered' })).statusCode).toBe(200);
    // Back in the lab, it needs the new version approved before it leaves again.
    expect((await move(id, { status: 'inprogress', reason: 'Remade' })).statusCode).toBe(200);
    const again = await move(id, { status: 'dispatched', courier: 'DHL', trackingNumber: 'JD2' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(
      'The treatment plan must be approved by the doctor before the case is dispatched',
    );
    expect(await statusOf(id)).toBe('inprogress');
  });
});
