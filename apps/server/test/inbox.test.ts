import { maxInboxItems, type InboxAnswer } from '@portal/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import { createStaff } from './helpers/factories.ts';
import { planForm, planSummaryOf, stageFiles, uploadPlan } from './helpers/plan-factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/** GET /api/inbox (docs/decisions/messages.md § Inbox): what waits for the caller across the cases they reach. */
type Doctor = Awaited<ReturnType<typeof createCaseDoctor>>;
type Staff = Awaited<ReturnType<typeof createStaff>>;

let t: TestApp;
let doctor: Doctor;
let otherDoctor: Doctor;
let staff: Staff;
let usersOnlyStaff: Staff;

beforeAll(async () => {
  t = await createTestApp();
  doctor = await createCaseDoctor(t);
  otherDoctor = await createCaseDoctor(t);
  staff = await createStaff(t, [1]);
  usersOnlyStaff = await createStaff(t, [4]);
}, scaled(60_000));
afterAll(() => t.close());

async function newCase(owner: Doctor, patient = { firstname: 'Zebulon', lastname: 'Quixote' }) {
  const response = await submitCase(t, owner.token, caseForm(caseFields(owner.clinicId, patient)));
  expect(response.statusCode, response.body).toBe(200);
  const { CaseId, TrackingNo } = response.json<{ CaseId: number; TrackingNo: string }>();
  return { caseId: CaseId, trackingNo: TrackingNo };
}
async function write(token: string, caseId: number, text: string): Promise<number> {
  const response = await t.as(token, {
    method: 'POST',
    url: `/api/case/${caseId}/messages`,
    payload: caseForm({ text }),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ messageId: number }>().messageId;
}
async function newPlan(caseId: number): Promise<{ planId: number; version: number }> {
  const response = await uploadPlan(t, staff.token, caseId, planForm(planSummaryOf(1, 1), stageFiles(1, 1)));
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ planId: number; version: number }>();
}
const decide = (token: string, caseId: number, planId: number, payload: object, action: string) =>
  t.as(token, { method: 'POST', url: `/api/case/${caseId}/plans/${planId}/${action}`, payload });
const markRead = (token: string, caseId: number) =>
  t.as(token, { method: 'POST', url: `/api/case/${caseId}/messages/read` });
async function inbox(token: string, after?: string): Promise<InboxAnswer> {
  const response = await t.as(token, { method: 'GET', url: '/api/inbox', query: after ? { after } : {} });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<InboxAnswer>();
}
const itemsOf = (answer: InboxAnswer, caseId: number) => answer.items.filter((item) => item.caseId === caseId);

describe('GET /api/inbox', () => {
  it("gives a doctor the lab's unread messages and the plans awaiting their approval, newest first, until read or decided", async () => {
    const { caseId, trackingNo } = await newCase(doctor, { firstname: 'Ada', lastname: 'Lovelace' });
    const first = await write(staff.token, caseId, 'Please send a new upper scan');
    const plan = await newPlan(caseId);
    const second = await write(staff.token, caseId, `${'x'.repeat(200)} tail`);

    const answer = await inbox(doctor.token);
    const items = itemsOf(answer, caseId);
    expect(items.map((item) => [item.kind, item.itemId])).toEqual([
      ['message', second],
      ['plan', plan.planId],
      ['message', first],
    ]);
    expect(items[2]).toMatchObject({
      trackingNo,
      patientName: 'Ada Lovelace',
      excerpt: 'Please send a new upper scan',
      version: null,
    });
    expect(items[0]!.excerpt).toHaveLength(160);
    expect(items[1]).toMatchObject({ kind: 'plan', version: 1, excerpt: '' });
    expect(Date.parse(items[0]!.at)).toBeGreaterThanOrEqual(Date.parse(items[1]!.at));
    expect(answer.unreadMessages).toBeGreaterThanOrEqual(2);

    // Read in any tab: the messages leave; approved: the plan leaves.
    expect((await markRead(doctor.token, caseId)).statusCode).toBe(200);
    expect(itemsOf(await inbox(doctor.token), caseId).map((item) => item.kind)).toEqual(['plan']);
    await t.app.jobs.runDue();
    const approved = await decide(
      doctor.token,
      caseId,
      plan.planId,
      { reviewedIn3d: true, findingsAcknowledged: true },
      'approve',
    );
    expect(approved.statusCode, approved.body).toBe(200);
    expect(itemsOf(await inbox(doctor.token), caseId)).toEqual([]);
  });

  it("gives staff the doctors' unread messages and the change requests not yet answered with a new version", async () => {
    const { caseId } = await newCase(doctor);
    const v1 = await newPlan(caseId);
    const asked = await decide(
      doctor.token,
      caseId,
      v1.planId,
      { comment: 'Less intrusion on 11 and 21, please' },
      'request_changes',
    );
    expect(asked.statusCode, asked.body).toBe(200);
    const question = await write(doctor.token, caseId, 'Any news?');

    const items = itemsOf(await inbox(staff.token), caseId);
    expect(items.map((item) => [item.kind, item.itemId])).toEqual([
      ['message', question],
      ['plan', v1.planId],
    ]);
    expect(items[1]).toMatchObject({ version: 1, excerpt: 'Less intrusion on 11 and 21, please' });
    // The doctor is not waiting on their own request, nor on their own message.
    expect(itemsOf(await inbox(doctor.token), caseId)).toEqual([]);

    // A new version answers the request: the lab's item goes, the doctor's comes.
    const v2 = await newPlan(caseId);
    expect(itemsOf(await inbox(staff.token), caseId).map((item) => item.kind)).toEqual(['message']);
    expect(itemsOf(await inbox(doctor.token), caseId).map((item) => [item.kind, item.itemId])).toEqual([
      ['plan', v2.planId],
    ]);
    // Staff read marks are their own: another staff user still has the message waiting.
    expect((await markRead(staff.token, caseId)).statusCode).toBe(200);
    expect(itemsOf(await inbox(staff.token), caseId)).toEqual([]);
    const otherStaff = await createStaff(t, [1]);
    expect(itemsOf(await inbox(otherStaff.token), caseId).map((item) => item.kind)).toEqual(['message']);
  });

  it("never shows a doctor another doctor's case", async () => {
    const { caseId } = await newCase(otherDoctor);
    await write(staff.token, caseId, 'For the other doctor only');
    await newPlan(caseId);
    expect(itemsOf(await inbox(doctor.token), caseId)).toEqual([]);
    expect(itemsOf(await inbox(otherDoctor.token), caseId)).toHaveLength(2);
  });

  it('holds at most maxInboxItems items, newest first, and counts them all', async () => {
    const { caseId } = await newCase(doctor);
    const { rows } = (await t.app.db.execute(sql`
      insert into case_messages (case_id, author_user_id, side, body)
      select ${caseId}, ${staff.userId}, 'lab', 'bulk ' || n from generate_series(1, ${maxInboxItems + 5}) as n
      returning message_id`)) as unknown as { rows: { message_id: number }[] };
    const answer = await inbox(doctor.token);
    expect(answer.items).toHaveLength(maxInboxItems);
    expect(answer.unreadMessages).toBeGreaterThanOrEqual(maxInboxItems + 5);
    expect(answer.items[0]!.itemId).toBe(Math.max(...rows.map((row) => row.message_id)));
    const ats = answer.items.map((item) => item.at);
    expect([...ats].sort().reverse()).toEqual(ats);

    // The next page starts after the last item, though all 105 were written in the same
    // millisecond: together the pages hold every unread item once.
    expect(answer.next).toMatch(/~message~\d+$/);
    const seen = [...answer.items];
    let next = answer.next;
    while (next) {
      const page = await inbox(doctor.token, next);
      expect(page.unreadMessages).toBe(answer.unreadMessages);
      expect(page.plansAwaiting).toBe(answer.plansAwaiting);
      seen.push(...page.items);
      next = page.next;
    }
    const keys = seen.map((item) => `${item.kind}-${item.itemId}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(seen).toHaveLength(answer.unreadMessages + answer.plansAwaiting);
    const bulk = seen.filter((item) => item.caseId === caseId).map((item) => item.itemId);
    expect(bulk).toEqual(rows.map((row) => row.message_id).sort((a, b) => b - a));
    expect((await markRead(doctor.token, caseId)).statusCode).toBe(200);
  });

  it('refuses a page that is not one (400), and answers an empty last page with the counts', async () => {
    for (const after of [
      'yesterday',
      '2026-11-28T08:00:00.000Z~note~1',
      '2026-13-45T08:00:00.000Z~plan~1',
      '2026-11-28T08:00:00.000Z~plan~99999999999',
    ]) {
      const refused = await t.as(doctor.token, { method: 'GET', url: '/api/inbox', query: { after } });
      expect(refused.statusCode, after).toBe(400);
      expect(refused.json<{ message: string }>().message).toBeTruthy();
    }
    const first = await inbox(doctor.token);
    const past = await inbox(doctor.token, '2000-01-01T00:00:00.000Z~message~1');
    expect(past).toEqual({
      items: [],
      next: null,
      unreadMessages: first.unreadMessages,
      plansAwaiting: first.plansAwaiting,
    });
  });

  it('refuses the anonymous (401) and staff without the Dashboard (403)', async () => {
    expect((await t.as(null, { method: 'GET', url: '/api/inbox' })).statusCode).toBe(401);
    const refused = await t.as(usersOnlyStaff.token, { method: 'GET', url: '/api/inbox' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ message: string }>().message).toBeTruthy();
  });
});
