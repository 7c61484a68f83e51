import { planShareMailsPerDay, type PlanShare } from '@portal/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { planShares } from '../src/db/schema.ts';
import { caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import { createStaff, outboxMessages } from './helpers/factories.ts';
import { planForm, planSummaryOf, stageFiles, uploadPlan } from './helpers/plan-factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/**
 * Issue 41: a patient link shows the case's current plan version only (docs/decisions/plans.md §
 * Patient links of a replaced version): none is made for a replaced version (409), and the links
 * of a version end when a newer one replaces it. A link can be mailed to an address the doctor
 * types, through the outbox, at most `planShareMailsPerDay` in 24 hours, audited.
 */

let t: TestApp;
let lab: string;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let caseId: number;

const sharesUrl = (planId: number) => `/api/case/${caseId}/plans/${planId}/shares`;
const makeShare = (planId: number, payload: object = {}, token = doctor.token) =>
  t.as(token, { method: 'POST', url: sharesUrl(planId), payload });
const visit = (url: string) =>
  t.app.inject({ method: 'GET', url: new URL(url).pathname.replace(/^\/p\//, '/api/shared/') });
const upload = async () => {
  const uploaded = await uploadPlan(t, lab, caseId, planForm(planSummaryOf(2, 1), stageFiles(2, 1)));
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  return uploaded.json<{ planId: number }>().planId;
};
const sharesOf = async (planId: number) =>
  (await t.app.db.select().from(planShares).where(eq(planShares.planId, planId))).length;
const auditRows = async (action: string) =>
  (
    (await t.app.db.execute(
      sql`select target, outcome from audit_log where action = ${action} order by audit_id`,
    )) as unknown as { rows: { target: string; outcome: string }[] }
  ).rows;
async function mailsTo(email: string): Promise<string[]> {
  await t.app.outbox.deliverDue();
  return (await outboxMessages(t)).filter((raw) => raw.includes(`To: ${email}`));
}

beforeAll(async () => {
  t = await createTestApp();
  lab = (await createStaff(t, [1])).token;
  doctor = await createCaseDoctor(t);
  const created = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId)));
  caseId = created.json<{ CaseId: number }>().CaseId;
});
afterAll(() => t?.close());

describe('patient links of a replaced version', () => {
  it('are refused for a superseded version (409, nothing kept), and the links made before end with it', async () => {
    const first = await upload();
    const { url } = (await makeShare(first)).json<{ url: string }>();
    expect((await visit(url)).statusCode).toBe(200);
    const second = await upload();

    const refused = await makeShare(first);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toEqual({
      message: "Patient links are made for the case's current plan version: this one was replaced by a newer version",
    });
    expect(await sharesOf(first)).toBe(1);
    const mailed = await makeShare(first, { email: 'patient-old@example.com' });
    expect(mailed.statusCode).toBe(409);
    expect(await mailsTo('patient-old@example.com')).toEqual([]);

    // The old link now answers as an expired one; the list says it is no longer open.
    expect((await visit(url)).json()).toEqual({
      message: 'This link is not valid: it may have expired or been revoked',
    });
    const listed = (await t.as(doctor.token, { method: 'GET', url: sharesUrl(first) })).json<PlanShare[]>();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ isOpen: false, revokedAt: null });

    // The current version takes links as before.
    const current = await makeShare(second);
    expect(current.statusCode, current.body).toBe(200);
    expect((await visit(current.json<{ url: string }>().url)).statusCode).toBe(200);
  });

  it('are refused for a version that is not the newest even before its state changes', async () => {
    const newest = await upload();
    // An older version left in another state (as a race between an upload and a share could leave it).
    const [older] = (
      (await t.app.db.execute(
        sql`select plan_id from treatment_plans where case_id = ${caseId} and plan_id <> ${newest} order by version desc limit 1`,
      )) as unknown as { rows: { plan_id: number }[] }
    ).rows;
    await t.app.db.execute(sql`update treatment_plans set state = 'approved' where plan_id = ${older!.plan_id}`);
    expect((await makeShare(older!.plan_id)).statusCode).toBe(409);
    await t.app.db.execute(sql`update treatment_plans set state = 'superseded' where plan_id = ${older!.plan_id}`);
  });
});

describe('patient links by e-mail', () => {
  let planId: number;
  beforeAll(async () => {
    const plans = (await t.as(doctor.token, { method: 'GET', url: `/api/case/${caseId}/plans` })).json<
      { planId: number }[]
    >();
    planId = plans[0]!.planId;
  });

  it('mail the link to the address typed, through the outbox, audited as plan.share_email', async () => {
    const made = await makeShare(planId, { days: 3, email: 'patient@example.com' });
    expect(made.statusCode, made.body).toBe(200);
    const { url, emailedTo, shareId } = made.json<{ url: string; emailedTo: string; shareId: number }>();
    expect(emailedTo).toBe('patient@example.com');
    const [mail] = await mailsTo('patient@example.com');
    expect(mail).toBeDefined();
    expect(mail).toContain('shared your treatment plan');
    expect(mail!.replace(/=\r?\n/g, '')).toContain(url);
    expect(mail).toContain('open for 3 days');
    const listed = (await t.as(doctor.token, { method: 'GET', url: sharesUrl(planId) })).json<PlanShare[]>();
    expect(listed.find((share) => share.shareId === shareId)).toMatchObject({ emailedTo: 'patient@example.com' });
    await vi.waitFor(
      async () =>
        expect(await auditRows('plan.share_email')).toContainEqual({
          target: `case:${caseId}/plan:${planId}/share:${shareId}`,
          outcome: 'success',
        }),
      { timeout: scaled(5000), interval: 50 },
    );
    // A link only copied stays plan.share, with no address; each link comes with its QR code.
    const copied = (await makeShare(planId)).json<{ emailedTo: string | null; qrCodeSvg: string }>();
    expect(copied.emailedTo).toBeNull();
    expect(copied.qrCodeSvg).toMatch(/^<svg [^>]*viewBox="0 0 \d+ \d+"/);
  });

  it('refuse an address that is not one (400, nothing kept)', async () => {
    const before = await sharesOf(planId);
    for (const email of ['not-an-address', '', `${'a'.repeat(250)}@example.com`]) {
      const refused = await makeShare(planId, { email });
      expect(refused.statusCode, email).toBe(400);
      expect(refused.json().fieldErrors?.email, refused.body).toBeTruthy();
    }
    expect(await sharesOf(planId)).toBe(before);
  });

  it(`mail at most ${planShareMailsPerDay} links a doctor in 24 hours (429 saying when, nothing kept); copying is not bounded by it`, async () => {
    // Links mailed earlier today count (revoked ones too): the day's bound is on mail sent.
    const mailedSoFar = Number(
      (
        (await t.app.db.execute(
          sql`select count(*)::int as n from plan_shares where created_by = ${doctor.userId} and emailed_to is not null`,
        )) as unknown as { rows: { n: number }[] }
      ).rows[0]!.n,
    );
    for (let sent = mailedSoFar; sent < planShareMailsPerDay; sent++) {
      const made = await makeShare(planId, { email: `patient${sent}@example.com` });
      expect(made.statusCode, made.body).toBe(200);
      // Revoked at once, so the version's bound on open links does not come first.
      await t.as(doctor.token, {
        method: 'DELETE',
        url: `${sharesUrl(planId)}/${made.json<{ shareId: number }>().shareId}`,
      });
    }
    const before = await sharesOf(planId);
    const refused = await makeShare(planId, { email: 'one-more@example.com' });
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json().message).toMatch(
      new RegExp(
        `^You have mailed ${planShareMailsPerDay} patient links in the last 24 hours; you can mail one again after \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC$`,
      ),
    );
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await sharesOf(planId)).toBe(before);
    expect(await mailsTo('one-more@example.com')).toEqual([]);
    // A link only copied is still made.
    expect((await makeShare(planId)).statusCode).toBe(200);
    // A day later the oldest leave the count.
    await t.app.db
      .update(planShares)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(and(eq(planShares.createdBy, doctor.userId)));
    expect((await makeShare(planId, { email: 'one-more@example.com' })).statusCode).toBe(200);
  });
});
