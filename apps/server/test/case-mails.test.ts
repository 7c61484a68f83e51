import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import { createStaff, outboxMessages } from './helpers/factories.ts';
import { readableMail } from './helpers/mail.ts';
import { approvedPlan } from './helpers/plan-factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/** What a case's mails tell (issue 24): the courier of a dispatched case, and the lab of a new one. */

let t: TestApp;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let labStaff: Awaited<ReturnType<typeof createStaff>>;
let otherLabStaff: Awaited<ReturnType<typeof createStaff>>;
let usersOnlyStaff: Awaited<ReturnType<typeof createStaff>>;

beforeAll(async () => {
  t = await createTestApp();
  doctor = await createCaseDoctor(t, { firstname: 'Grace', lastname: 'Hopper' });
  labStaff = await createStaff(t, [1]);
  otherLabStaff = await createStaff(t, [1]);
  usersOnlyStaff = await createStaff(t, [4]);
}, scaled(60_000));
afterAll(() => t.close());

const patient = { firstname: 'Zebulon', lastname: 'Quixote' };
const staffEmail = (staff: { username: string }) => `${staff.username}@lab.test`;

async function newCase(token: string, overrides: Record<string, string | number> = {}) {
  const response = await submitCase(t, token, caseForm(caseFields(doctor.clinicId, { ...patient, ...overrides })));
  expect(response.statusCode, response.body).toBe(200);
  const { CaseId, TrackingNo } = response.json<{ CaseId: number; TrackingNo: string }>();
  return { caseId: CaseId, trackingNo: TrackingNo, caseUrl: `${t.config.publicUrl}/cases/${CaseId}` };
}

/** Every mail delivered so far whose subject has `subject`, as a reader sees it. */
async function mailsAbout(subject: string): Promise<string[]> {
  await t.app.outbox.deliverDue();
  return (await outboxMessages(t)).map(readableMail).filter((mail) => mail.includes(`Subject: ${subject}`));
}
const recipientOf = (mail: string) => /^To: (.+)$/m.exec(mail)?.[1]?.trim();

describe('the status mail of a dispatched case', () => {
  it('names the courier and its tracking number; other status mails name none', async () => {
    const { caseId, trackingNo } = await newCase(doctor.token);
    const move = (payload: Record<string, string>) =>
      t.as(labStaff.token, { method: 'PUT', url: `/api/case/status/${caseId}`, payload });
    expect((await move({ status: 'inprogress' })).statusCode).toBe(200);
    await approvedPlan(t, labStaff.token, doctor.token, caseId);
    const dispatched = await move({ status: 'dispatched', courier: ' DHL Express ', trackingNumber: 'JD014600006' });
    expect(dispatched.statusCode, dispatched.body).toBe(200);

    const [mail] = await mailsAbout(`Case ${trackingNo} is now Dispatched`);
    expect(recipientOf(mail!)).toBe(doctor.email);
    expect(mail).toContain(`changed to Dispatched.\nCourier: DHL Express\nTracking number: JD014600006\n`);
    expect(mail).toContain('<p>Courier: DHL Express<br>Tracking number: JD014600006</p>');
    const [inProgress] = await mailsAbout(`Case ${trackingNo} is now In Progress`);
    expect(inProgress).toBeDefined();
    expect(inProgress).not.toMatch(/Courier|Tracking number/);
  });
});

describe('the mail to the lab of a new case', () => {
  it('tells every Dashboard staff user by name, with the doctor and the link, and no patient data', async () => {
    const { trackingNo, caseUrl } = await newCase(doctor.token);
    const mails = await mailsAbout(`New case ${trackingNo} from Grace Hopper`);
    const recipients = mails.map(recipientOf);
    expect(recipients).toContain(staffEmail(labStaff));
    expect(recipients).toContain(staffEmail(otherLabStaff));
    expect(recipients).not.toContain(staffEmail(usersOnlyStaff));
    expect(recipients).not.toContain(doctor.email);
    expect(new Set(recipients).size).toBe(recipients.length);
    const mail = mails.find((sent) => recipientOf(sent) === staffEmail(labStaff))!;
    expect(mail).toContain('Dear Sam Staff,');
    expect(mail).toContain(`Grace Hopper has a new case, ${trackingNo}, waiting for the lab.\n${caseUrl}\n`);
    for (const sent of mails) expect(sent).not.toMatch(/Zebulon|Quixote|2001-03-05/);
  });

  it('does not tell the staff user who submitted the case for the doctor, only the rest of the lab', async () => {
    const submitter = await createStaff(t, [1, 6]);
    const { trackingNo } = await newCase(submitter.token, { userId: doctor.userId });
    const recipients = (await mailsAbout(`New case ${trackingNo} from Grace Hopper`)).map(recipientOf);
    expect(recipients).toContain(staffEmail(labStaff));
    expect(recipients).not.toContain(staffEmail(submitter));
  });

  it('queues nothing for a refused submission: the mail commits with the case', async () => {
    const queued = async () =>
      (
        (await t.app.db.execute(
          sql`select count(*)::int as n from mail_outbox where template = 'caseSubmitted'`,
        )) as unknown as { rows: { n: number }[] }
      ).rows[0]!.n;
    const before = await queued();
    const refused = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId, { clinicId: 999_999 })));
    expect(refused.statusCode).toBe(400);
    expect(await queued()).toBe(before);
  });
});
