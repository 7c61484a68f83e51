import type { MailChoices, MailPreferences } from '@portal/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDueDigests } from '../src/mail/digest.ts';
import type { MailOutbox } from '../src/mail/outbox.ts';
import { caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import { createStaff, outboxMessages } from './helpers/factories.ts';
import { readableMail } from './helpers/mail.ts';
import { planForm, planSummaryOf, stageFiles, uploadPlan } from './helpers/plan-factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/** E-mail preferences and the daily digest (docs/decisions/mail.md § E-mail preferences). */
type Doctor = Awaited<ReturnType<typeof createCaseDoctor>>;

let t: TestApp;
let staff: Awaited<ReturnType<typeof createStaff>>;

beforeAll(async () => {
  t = await createTestApp();
  staff = await createStaff(t, [1]);
}, scaled(60_000));
afterAll(() => t.close());

const url = '/api/account/mail-preferences';
const save = (token: string | null, payload: unknown) =>
  t.as(token, { method: 'PUT', url, payload: payload as object });
const read = (token: string | null) => t.as(token, { method: 'GET', url });
const everyKind = (delivery: MailPreferences['messages']): MailChoices => ({
  messages: delivery,
  plans: delivery,
  status: delivery,
  progress: delivery,
});

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await t.app.db.execute(query)) as unknown as { rows: T[] }).rows;
}
const digestItemsOf = async (userId: number) =>
  (await rows<{ n: number }>(sql`select count(*)::int as n from mail_digest_items where user_id = ${userId}`))[0]!.n;

async function newCase(owner: Doctor) {
  const response = await submitCase(t, owner.token, caseForm(caseFields(owner.clinicId)));
  expect(response.statusCode, response.body).toBe(200);
  const { CaseId, TrackingNo } = response.json<{ CaseId: number; TrackingNo: string }>();
  return { caseId: CaseId, trackingNo: TrackingNo };
}
const moveTo = async (caseId: number, status: string) => {
  const response = await t.as(staff.token, { method: 'PUT', url: `/api/case/status/${caseId}`, payload: { status } });
  expect(response.statusCode, response.body).toBe(200);
};
const writeMessage = async (token: string, caseId: number, text: string) => {
  const response = await t.as(token, {
    method: 'POST',
    url: `/api/case/${caseId}/messages`,
    payload: caseForm({ text }),
  });
  expect(response.statusCode, response.body).toBe(200);
};
/** Every mail delivered so far to `to`, as a reader sees it. */
async function mailsTo(to: string): Promise<string[]> {
  await t.app.outbox.deliverDue();
  return (await outboxMessages(t)).map(readableMail).filter((mail) => new RegExp(`^To: ${to}$`, 'm').test(mail));
}
const subjects = (mails: string[]) => mails.map((mail) => /^Subject: (.+)$/m.exec(mail)?.[1]?.trim());
const digestsIn = (mails: string[]) => mails.filter((mail) => /^Subject: Your Aligner Portal digest/m.test(mail));

const deps = () => ({ db: t.app.db, outbox: t.app.outbox, publicUrl: t.config.publicUrl });
/** The next digest hour is a day away: items kept now are all due then. */
const tomorrow = () => ({ now: new Date(Date.now() + 86_400_000), hourUtc: new Date().getUTCHours() });

describe('GET and PUT /api/account/mail-preferences', () => {
  it('starts every kind at immediate, keeps what the caller saves, and answers the digest hour', async () => {
    const doctor = await createCaseDoctor(t);
    const first = await read(doctor.token);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ ...everyKind('immediate'), digestHourUtc: 7 });

    const saved = await save(doctor.token, { messages: 'digest', plans: 'off', status: 'immediate' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ message: 'E-mail preferences saved' });
    expect((await read(doctor.token)).json()).toEqual({
      messages: 'digest',
      plans: 'off',
      status: 'immediate',
      progress: 'immediate',
      digestHourUtc: 7,
    });
    // Each user's own: another user's stay as they were.
    expect((await read(staff.token)).json()).toMatchObject(everyKind('immediate'));
    await expect
      .poll(() =>
        rows(
          sql`select 1 from audit_log where action = 'account.mail_preferences' and target = ${`user:${doctor.userId}`}`,
        ),
      )
      .toHaveLength(1);
  });

  it('refuses an unknown delivery or a missing kind with 400 and keeps what was saved', async () => {
    const doctor = await createCaseDoctor(t);
    expect((await save(doctor.token, everyKind('digest'))).statusCode).toBe(200);
    const unknown = await save(doctor.token, { ...everyKind('off'), status: 'weekly' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ message: string }>().message).toContain('Status must be immediate, digest or off');
    const missing = await save(doctor.token, { messages: 'off', plans: 'off' });
    expect(missing.statusCode).toBe(400);
    expect((await read(doctor.token)).json()).toMatchObject(everyKind('digest'));
  });

  it('keeps the progress kind as it was when a client that knows the first three leaves it out', async () => {
    const lab = await createStaff(t, [1]);
    expect((await save(lab.token, { messages: 'off', plans: 'off', status: 'off' })).statusCode).toBe(200);
    expect((await read(lab.token)).json()).toMatchObject({ ...everyKind('off'), progress: 'immediate' });
    expect((await save(lab.token, everyKind('digest'))).statusCode).toBe(200);
    expect((await save(lab.token, { messages: 'off', plans: 'off', status: 'off' })).statusCode).toBe(200);
    expect((await read(lab.token)).json()).toMatchObject({ ...everyKind('off'), progress: 'digest' });
    const unknown = await save(lab.token, { ...everyKind('off'), progress: 'weekly' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ message: string }>().message).toContain('Progress scans must be immediate, digest or off');
  });

  it('is for the signed-in only (401), and any signed-in user sets their own', async () => {
    expect((await read(null)).statusCode).toBe(401);
    expect((await save(null, everyKind('off'))).statusCode).toBe(401);
    const usersOnlyStaff = await createStaff(t, [4]);
    expect((await save(usersOnlyStaff.token, everyKind('off'))).statusCode).toBe(200);
    expect((await read(usersOnlyStaff.token)).json()).toMatchObject(everyKind('off'));
  });
});

describe('case mails by preference', () => {
  it('off: no status or plan mail; account mails still go out', async () => {
    const doctor = await createCaseDoctor(t);
    expect((await save(doctor.token, everyKind('off'))).statusCode).toBe(200);
    const { caseId } = await newCase(doctor);
    await moveTo(caseId, 'inprogress');
    const plan = await uploadPlan(t, staff.token, caseId, planForm(planSummaryOf(1, 1), stageFiles(1, 1)));
    expect(plan.statusCode, plan.body).toBe(200);
    const admin = await t.adminToken();
    const reset = await t.as(admin, { method: 'POST', url: `/api/doctor/request_password_reset/${doctor.doctorId}` });
    expect(reset.statusCode, reset.body).toBe(200);

    expect(subjects(await mailsTo(doctor.email))).toEqual(['Set a new Aligner Portal password']);
    expect(await digestItemsOf(doctor.userId)).toBe(0);
  });

  it('immediate (the default): the status mail goes out at once', async () => {
    const doctor = await createCaseDoctor(t);
    const { caseId, trackingNo } = await newCase(doctor);
    await moveTo(caseId, 'inprogress');
    expect(subjects(await mailsTo(doctor.email))).toContain(`Case ${trackingNo} is now In Progress`);
  });
});

describe('the daily digest', () => {
  it('holds the chosen kinds and sends one mail listing them after the digest hour, once', async () => {
    const doctor = await createCaseDoctor(t);
    expect((await save(doctor.token, { messages: 'digest', plans: 'digest', status: 'immediate' })).statusCode).toBe(
      200,
    );
    const { caseId, trackingNo } = await newCase(doctor);
    await moveTo(caseId, 'inprogress');
    const plan = await uploadPlan(t, staff.token, caseId, planForm(planSummaryOf(1, 1), stageFiles(1, 1)));
    expect(plan.statusCode, plan.body).toBe(200);
    await writeMessage(staff.token, caseId, 'Plan v1 is up');
    expect(await digestItemsOf(doctor.userId)).toBe(2);
    // Only the status mail went out at once.
    expect(subjects(await mailsTo(doctor.email))).toEqual([`Case ${trackingNo} is now In Progress`]);

    // Before the next digest hour nothing is due: items kept after today's hour wait for tomorrow's.
    const nextHour = (new Date().getUTCHours() + 1) % 24;
    expect(await sendDueDigests(deps(), { now: new Date(), hourUtc: nextHour })).toBe(0);
    expect(await digestItemsOf(doctor.userId)).toBe(2);

    // Two processes at the hour: one digest between them.
    const queued = await Promise.all([sendDueDigests(deps(), tomorrow()), sendDueDigests(deps(), tomorrow())]);
    expect(queued.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    expect(await digestItemsOf(doctor.userId)).toBe(0);
    const digests = digestsIn(await mailsTo(doctor.email));
    expect(digests).toHaveLength(1);
    expect(digests[0]).toContain('Subject: Your Aligner Portal digest: 2 updates');
    expect(digests[0]).toContain(`- A treatment plan is ready for your review (case ${trackingNo})\n`);
    expect(digests[0]).toContain(`- New message about case ${trackingNo}\n`);
    expect(digests[0]).toContain(`Your inbox: ${t.config.publicUrl}/inbox`);
    expect(digests[0]).not.toContain('Plan v1 is up');
    // Sent once: a later run finds nothing.
    expect(await sendDueDigests(deps(), tomorrow())).toBe(0);
    expect(digestsIn(await mailsTo(doctor.email))).toHaveLength(1);
  });

  it('leaves out messages read meanwhile, and every case the user no longer reaches', async () => {
    const doctor = await createCaseDoctor(t);
    const labUser = await createStaff(t, [1]);
    const labEmail = `${labUser.username}@lab.test`;
    expect((await save(labUser.token, everyKind('digest'))).statusCode).toBe(200);
    const read = await newCase(doctor);
    const unread = await newCase(doctor);
    await writeMessage(doctor.token, read.caseId, 'A question');
    await writeMessage(doctor.token, unread.caseId, 'Another question');
    // The two new cases and the two messages.
    expect(await digestItemsOf(labUser.userId)).toBe(4);
    const marked = await t.as(labUser.token, { method: 'POST', url: `/api/case/${read.caseId}/messages/read` });
    expect(marked.statusCode).toBe(200);
    await sendDueDigests(deps(), tomorrow());
    const [digest] = digestsIn(await mailsTo(labEmail));
    expect(digest).toContain(`New message about case ${unread.trackingNo}\n`);
    expect(digest).not.toContain(`New message about case ${read.trackingNo}\n`);
    expect(digest).toContain(`- New case ${read.trackingNo} from`);

    // Dashboard taken from the role: no case is theirs to hear of, and nothing is sent.
    const later = await newCase(doctor);
    await writeMessage(doctor.token, later.caseId, 'A third question');
    expect(await digestItemsOf(labUser.userId)).toBe(2);
    const admin = await t.adminToken();
    const revoked = await t.as(admin, { method: 'DELETE', url: `/api/permission/delete/${labUser.roleId}/1` });
    expect(revoked.statusCode, revoked.body).toBe(200);
    await sendDueDigests(deps(), tomorrow());
    expect(await digestItemsOf(labUser.userId)).toBe(0);
    expect(digestsIn(await mailsTo(labEmail))).toHaveLength(1);
  });

  it('keeps the items when the digest cannot be queued: the mail and the deletion commit together', async () => {
    const doctor = await createCaseDoctor(t);
    expect((await save(doctor.token, everyKind('digest'))).statusCode).toBe(200);
    const { caseId } = await newCase(doctor);
    await moveTo(caseId, 'inprogress');
    expect(await digestItemsOf(doctor.userId)).toBe(1);
    // The outbox's insert fails (the process dies there): the transaction takes the deletion back.
    const failing = {
      enqueue: () => Promise.reject(new Error('connection lost')),
      kick: () => {},
    } as unknown as MailOutbox;
    await expect(sendDueDigests({ ...deps(), outbox: failing }, tomorrow())).rejects.toThrow('connection lost');
    expect(await digestItemsOf(doctor.userId)).toBe(1);
    expect(await sendDueDigests(deps(), tomorrow())).toBeGreaterThanOrEqual(1);
    expect(digestsIn(await mailsTo(doctor.email))).toHaveLength(1);
  });
});
