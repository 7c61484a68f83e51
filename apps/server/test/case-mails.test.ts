import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import { createStaff, outboxMessages } from './helpers/factories.ts';
import { readableMail } from './helpers/mail.ts';
import { approvedPlan } from './helpers/plan-factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/** What a case's mails tell (issue 24): the courier of a dispatched case. */

let t: TestApp;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let labStaff: Awaited<ReturnType<typeof createStaff>>;

beforeAll(async () => {
  t = await createTestApp();
  doctor = await createCaseDoctor(t, { firstname: 'Grace', lastname: 'Hopper' });
  labStaff = await createStaff(t, [1]);
}, 60_000);
afterAll(() => t.close());

const patient = { firstname: 'Zebulon', lastname: 'Quixote' };

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
