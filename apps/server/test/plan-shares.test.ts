import type { PlanShare, SharedPlan } from '@portal/contract';
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { clinics, planShares, users } from '../src/db/schema.ts';
import { loggablePath } from '../src/lib/logging.ts';
import { caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import { createStaff } from './helpers/factories.ts';
import { planForm, planSummaryOf, stageFiles, uploadPlan } from './helpers/plan-factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/**
 * docs/quality/plans-and-meshes.md, Patient links (issue 23): the case's doctor makes read-only
 * links to one plan version, 1 to 30 days, revocable; the link shows the stages and the
 * first name's initial only; its token is stored hashed, and an unknown, expired or revoked
 * one is the same 404; guessing is counted per address; each view is audited.
 */

let t: TestApp;
let admin: string;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let caseId: number;
let planId: number;

const sharesUrl = (plan = planId) => `/api/case/${caseId}/plans/${plan}/shares`;
const makeShare = (token: string, payload: object = {}) => t.as(token, { method: 'POST', url: sharesUrl(), payload });
const apiPathOf = (url: string) => new URL(url).pathname.replace(/^\/p\//, '/api/shared/');
const visit = (path: string, address = '10.0.0.1') =>
  t.app.inject({ method: 'GET', url: path, remoteAddress: address });

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  doctor = await createCaseDoctor(t);
  const created = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId)));
  caseId = created.json<{ CaseId: number }>().CaseId;
  const uploaded = await uploadPlan(t, admin, caseId, planForm(planSummaryOf(2, 1), stageFiles(2, 1)));
  planId = uploaded.json<{ planId: number }>().planId;
  await t.app.jobs.runDue();
});
afterAll(() => t?.close());

describe('patient links to a plan version', () => {
  it('are made by the case doctor for 1 to 30 days (14 unless said), with a token of 256 random bits stored hashed', async () => {
    const made = await makeShare(doctor.token);
    expect(made.statusCode, made.body).toBe(200);
    const { shareId, url, expiresAt } = made.json<{ shareId: number; url: string; expiresAt: string }>();
    const token = /^http:\/\/portal\.test\/p\/([A-Za-z0-9_-]{43})$/.exec(url)?.[1];
    expect(token).toBeTruthy();
    const days = (Date.parse(expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.99);
    expect(days).toBeLessThanOrEqual(14);
    const [row] = await t.app.db.select().from(planShares).where(eq(planShares.shareId, shareId));
    expect(row!.tokenHash).toBe(createHash('sha256').update(token!).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token!);
    const thirty = (await makeShare(doctor.token, { days: 30 })).json<{ expiresAt: string }>();
    expect(Math.round((Date.parse(thirty.expiresAt) - Date.now()) / 86_400_000)).toBe(30);
    for (const days of [0, 31, 1.5, '7']) {
      const refused = await makeShare(doctor.token, { days });
      expect(refused.statusCode, String(days)).toBe(400);
      expect(refused.json().fieldErrors).toEqual({ days: 'Days must be a whole number from 1 to 30' });
    }
  });

  it("show the stages, the version, the first name's initial and the clinic to contact: no name, birth date, doctor, file or message", async () => {
    const { url } = (await makeShare(doctor.token, { days: 2 })).json<{ url: string }>();
    const answer = await visit(apiPathOf(url));
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(answer.headers['referrer-policy']).toBe('no-referrer');
    const shared = answer.json<SharedPlan>();
    expect(shared).toEqual({
      initial: 'P.',
      version: 1,
      upperStages: 2,
      lowerStages: 1,
      clinic: { name: 'Smile Clinic', phone: '123456' },
      views: {
        upper: expect.objectContaining({ state: 'ready' }),
        lower: expect.objectContaining({ state: 'ready' }),
      },
    });
    const detail = (await t.as(doctor.token, { method: 'GET', url: `/api/case/${caseId}` })).json<
      Record<string, unknown>
    >();
    // Nothing of the doctor: the patient calls the clinic, not the doctor's own address or phone.
    const [doctorRow] = await t.app.db
      .select({ email: users.email, firstName: users.firstName, lastName: users.lastName, mobileNo: users.mobileNo })
      .from(users)
      .where(eq(users.userId, doctor.userId));
    const [clinicRow] = await t.app.db.select().from(clinics).where(eq(clinics.clinicId, doctor.clinicId));
    for (const value of [
      detail.lastName,
      detail.firstName,
      detail.dateOfBirth,
      detail.TrackingNo,
      ...Object.values(doctorRow!),
      clinicRow!.address,
    ]) {
      if (typeof value === 'string' && value.length > 1) expect(answer.body).not.toContain(value);
    }
    // A clinic without a phone says so with null rather than an empty number.
    await t.app.db.update(clinics).set({ contactNo: ' ' }).where(eq(clinics.clinicId, doctor.clinicId));
    try {
      expect((await visit(apiPathOf(url))).json<SharedPlan>().clinic).toEqual({ name: 'Smile Clinic', phone: null });
    } finally {
      await t.app.db.update(clinics).set({ contactNo: '123456' }).where(eq(clinics.clinicId, doctor.clinicId));
    }
    const mesh = await visit(`${apiPathOf(url)}/views/upper/mesh.glb`);
    expect(mesh.statusCode).toBe(200);
    expect(mesh.headers['content-type']).toBe('model/gltf-binary');
    // The page itself is kept out of search engines too.
    expect((await visit(new URL(url).pathname)).headers['x-robots-tag']).toBe('noindex, nofollow');
  });

  it('are listed for the doctor with expiry and last use, and revoked: a revoked, expired or unknown token is the same 404', async () => {
    const { shareId, url } = (await makeShare(doctor.token, { days: 5 })).json<{ shareId: number; url: string }>();
    expect((await visit(apiPathOf(url))).statusCode).toBe(200);
    let listed = (await t.as(doctor.token, { method: 'GET', url: sharesUrl() })).json<PlanShare[]>();
    expect(listed[0]).toMatchObject({ shareId, isOpen: true, revokedAt: null });
    expect(listed[0]!.lastUsedAt).toBeTruthy();
    const revoked = await t.as(doctor.token, { method: 'DELETE', url: `${sharesUrl()}/${shareId}` });
    expect(revoked.statusCode, revoked.body).toBe(200);
    listed = (await t.as(doctor.token, { method: 'GET', url: sharesUrl() })).json<PlanShare[]>();
    expect(listed[0]).toMatchObject({ shareId, isOpen: false });
    const notFound = { message: 'This link is not valid: it may have expired or been revoked' };
    expect((await visit(apiPathOf(url))).json()).toEqual(notFound);
    expect((await visit(`${apiPathOf(url)}/views/upper/mesh.glb`)).statusCode).toBe(404);
    const expiring = (await makeShare(doctor.token, { days: 1 })).json<{ shareId: number; url: string }>();
    await t.app.db
      .update(planShares)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(planShares.shareId, expiring.shareId));
    expect((await visit(apiPathOf(expiring.url))).json()).toEqual(notFound);
    expect((await visit(`/api/shared/${'x'.repeat(43)}`)).json()).toEqual(notFound);
    expect((await visit('/api/shared/short')).json()).toEqual(notFound);
  });

  it('are the case doctor alone: the lab 403, another doctor 404', async () => {
    const lab = await createStaff(t, [1]);
    const other = await createCaseDoctor(t);
    expect((await makeShare(lab.token)).statusCode).toBe(403);
    expect((await t.as(lab.token, { method: 'GET', url: sharesUrl() })).statusCode).toBe(403);
    expect((await makeShare(other.token)).statusCode).toBe(404);
    expect((await t.as(other.token, { method: 'GET', url: sharesUrl() })).statusCode).toBe(404);
  });

  it('count guesses per address: past 30 refused tokens in 10 minutes, 429, even for a good one; other addresses unaffected', async () => {
    const { url } = (await makeShare(doctor.token, { days: 1 })).json<{ url: string }>();
    for (let guess = 0; guess < 30; guess++) {
      expect((await visit(`/api/shared/${String(guess).padStart(43, 'g')}`, '10.9.9.9')).statusCode).toBe(404);
    }
    const limited = await visit(apiPathOf(url), '10.9.9.9');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await visit(apiPathOf(url), '10.9.9.10')).statusCode).toBe(200);
  });

  it('audit each view, and keep the token out of the logs and the audit', async () => {
    const { url } = (await makeShare(doctor.token, { days: 1 })).json<{ url: string }>();
    const token = new URL(url).pathname.slice(3);
    await visit(apiPathOf(url));
    await vi.waitFor(
      async () => {
        const rows = (
          (await t.app.db.execute(
            sql`select action, target, outcome from audit_log where action = 'plan.share_view' and outcome = 'success'`,
          )) as unknown as { rows: { target: string }[] }
        ).rows;
        expect(rows.length).toBeGreaterThanOrEqual(1);
        expect(rows.at(-1)!.target).toMatch(new RegExp(`^case:${caseId}/plan:${planId}/share:\\d+$`));
      },
      { timeout: scaled(5000), interval: 50 },
    );
    const everything = JSON.stringify(
      ((await t.app.db.execute(sql`select * from audit_log`)) as unknown as { rows: unknown[] }).rows,
    );
    expect(everything).not.toContain(token);
    // The request log writes paths through the same function.
    expect(loggablePath(`/p/${token}`)).toBe('/p/[token]');
    expect(loggablePath(`/api/shared/${token}/views/upper/mesh.glb`)).toBe('/api/shared/[token]/views/upper/mesh.glb');
  });
});
