import { defaultLabSettings, type AuditEntry, type LabSettings } from '@portal/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { sendDigestsDueAtLabHour } from '../src/mail/digest.ts';
import { readLabSettings, seedLabSettings } from '../src/services/lab-settings.ts';
import { caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import { createStaff } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/** The lab's settings and each user's time zone (docs/decisions/settings.md). */
let t: TestApp;
let admin: string;
let staff: Awaited<ReturnType<typeof createStaff>>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  staff = await createStaff(t, [1]);
}, scaled(60_000));
afterAll(() => t.close());

const read = (token: string | null) => t.as(token, { method: 'GET', url: '/api/settings' });
const save = (token: string | null, payload: unknown) =>
  t.as(token, { method: 'PUT', url: '/api/settings', payload: payload as object });
async function saved(settings: LabSettings) {
  const response = await save(admin, settings);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<LabSettings>();
}
async function settingsAudit(): Promise<AuditEntry[]> {
  await t.app.auditWritten();
  const response = await t.as(admin, { method: 'GET', url: '/api/audit?action=settings.update' });
  return response.json<AuditEntry[]>();
}

describe('GET and PUT /api/settings', () => {
  it("answers the first start's settings, keeps what the administrator saves and audits each change's before and after", async () => {
    const first = await read(admin);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual(defaultLabSettings);

    const next: LabSettings = {
      ...defaultLabSettings,
      turnaroundDays: { new: 3, inprogress: 12 },
      digestHourUtc: 18,
      couriers: [
        ...defaultLabSettings.couriers,
        { name: 'Swift Post', trackingUrl: 'https://swift.example/track/{trackingNumber}' },
      ],
    };
    expect(await saved(next)).toEqual(next);
    expect((await read(admin)).json()).toEqual(next);

    const [entry] = await settingsAudit();
    expect(entry).toMatchObject({ Action: 'settings.update', Outcome: 'success', UserName: 'admin' });
    expect(entry?.Changes).toEqual({
      turnaroundDays: { before: defaultLabSettings.turnaroundDays, after: next.turnaroundDays },
      digestHourUtc: { before: 7, after: 18 },
      couriers: { before: defaultLabSettings.couriers, after: next.couriers },
    });
    await saved(defaultLabSettings);
  });

  it('refuses bad values with a clear message and keeps the settings as they were', async () => {
    const before = (await read(admin)).json<LabSettings>();
    const auditedBefore = (await settingsAudit()).length;
    const refusals: [unknown, string][] = [
      [
        { ...before, couriers: [{ name: 'Swift Post', trackingUrl: 'https://swift.example/track' }] },
        'Tracking link must contain {trackingNumber} where the tracking number goes',
      ],
      [
        { ...before, couriers: [{ name: 'Swift', trackingUrl: 'javascript:alert({trackingNumber})' }] },
        'Tracking link must be an https:// or http:// address',
      ],
      [{ ...before, couriers: [before.couriers[0], before.couriers[0]] }, 'Each courier is named once'],
      [{ ...before, planStepLimits: { stepMm: 0, stepDeg: 2 } }, 'Step limit must be from 0.01 to 5 mm'],
      [{ ...before, digestHourUtc: 24 }, 'Digest hour must be a whole hour from 0 to 23'],
      [{ ...before, turnaroundDays: { new: 0 } }, 'Turnaround days must be from 1 to 365'],
      [{ ...before, timeZone: 'Mars/Olympus' }, 'Time zone must be a time zone name such as Europe/Berlin or UTC'],
    ];
    for (const [payload, message] of refusals) {
      const response = await save(admin, payload);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.body).toContain(message);
    }
    expect((await read(admin)).json()).toEqual(before);
    const audited = await settingsAudit();
    expect(audited).toHaveLength(auditedBefore + refusals.length);
    expect(audited.slice(0, refusals.length).every((entry) => entry.Outcome === 'failure' && !entry.Changes)).toBe(
      true,
    );
  });

  it('is for the administrator alone; the couriers are for everyone signed in', async () => {
    const doctor = await createCaseDoctor(t);
    for (const token of [staff.token, doctor.token]) {
      expect((await read(token)).statusCode).toBe(403);
      expect((await save(token, defaultLabSettings)).statusCode).toBe(403);
    }
    expect((await read(null)).statusCode).toBe(401);
    const couriers = await t.as(doctor.token, { method: 'GET', url: '/api/settings/couriers' });
    expect(couriers.json()).toEqual({ couriers: defaultLabSettings.couriers });
  });
});

describe('what follows the settings', () => {
  it('the turnaround targets, the couriers and the digest hour users are told', async () => {
    const doctor = await createCaseDoctor(t);
    const couriers = [{ name: 'Swift Post', trackingUrl: 'https://swift.example/track/{trackingNumber}' }];
    await saved({ ...defaultLabSettings, turnaroundDays: { delivered: 30 }, digestHourUtc: 5, couriers });
    const turnaround = await t.as(staff.token, { method: 'GET', url: '/api/case/turnaround' });
    expect(turnaround.json()).toEqual({ targets: { delivered: 30 } });
    expect((await t.as(doctor.token, { method: 'GET', url: '/api/settings/couriers' })).json()).toEqual({ couriers });
    const preferences = await t.as(doctor.token, { method: 'GET', url: '/api/account/mail-preferences' });
    expect(preferences.json()).toMatchObject({ digestHourUtc: 5 });
    await saved(defaultLabSettings);
  });

  it("the overdue filter: a case is overdue by the lab's target of the moment", async () => {
    const doctor = await createCaseDoctor(t);
    const submitted = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId)));
    const { CaseId, TrackingNo } = submitted.json<{ CaseId: number; TrackingNo: string }>();
    // The case has been new for three days.
    await t.app.db.execute(
      sql`update cases set status_changed_at = now() - interval '3 days' where case_id = ${CaseId}`,
    );
    const overdue = async () =>
      (
        await t.as(staff.token, {
          method: 'GET',
          url: `/api/case/get_cases_by_status/new/0?overdue=true&search=${TrackingNo}`,
        })
      )
        .json<{ CaseId: number }[]>()
        .some((row) => row.CaseId === CaseId);
    expect(await overdue()).toBe(true);
    await saved({ ...defaultLabSettings, turnaroundDays: { ...defaultLabSettings.turnaroundDays, new: 5 } });
    expect(await overdue()).toBe(false);
    await saved(defaultLabSettings);
  });

  it('the digest goes out at the hour of the settings of the moment', async () => {
    const doctor = await createCaseDoctor(t);
    const preferences = { messages: 'digest', plans: 'digest', status: 'digest' };
    await t.as(doctor.token, { method: 'PUT', url: '/api/account/mail-preferences', payload: preferences });
    const submitted = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId)));
    const { CaseId } = submitted.json<{ CaseId: number }>();
    const moved = await t.as(staff.token, {
      method: 'PUT',
      url: `/api/case/status/${CaseId}`,
      payload: { status: 'inprogress' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const deps = { db: t.app.db, outbox: t.app.outbox, publicUrl: t.config.publicUrl };
    // Two hours on: a digest hour one hour from now has passed since the item was kept, one three hours on has not.
    const later = new Date(Date.now() + 2 * 3_600_000);
    const hour = (ahead: number) => (new Date().getUTCHours() + ahead) % 24;
    await saved({ ...defaultLabSettings, digestHourUtc: hour(3) });
    expect(await sendDigestsDueAtLabHour(deps, later)).toBe(0);
    await saved({ ...defaultLabSettings, digestHourUtc: hour(1) });
    expect(await sendDigestsDueAtLabHour(deps, later)).toBeGreaterThanOrEqual(1);
    await saved(defaultLabSettings);
  });
});

describe('the first start', () => {
  it("writes the environment's values once; a database that has its settings keeps them", async () => {
    const fromEnv = loadConfig({
      JWT_SECRET: 'x'.repeat(32),
      PLAN_STEP_LIMIT_MM: '0.3',
      TURNAROUND_DAYS: 'new=4',
      MAIL_DIGEST_HOUR: '6',
    }).firstStartSettings;
    await seedLabSettings(t.app.db, fromEnv);
    expect(await readLabSettings(t.app.db)).toEqual(defaultLabSettings);

    await t.app.db.execute(sql`delete from lab_settings`);
    await seedLabSettings(t.app.db, fromEnv);
    expect(await readLabSettings(t.app.db)).toMatchObject({
      planStepLimits: { stepMm: 0.3, stepDeg: 2 },
      turnaroundDays: { new: 4 },
      digestHourUtc: 6,
      offTrackThresholds: { offsetMm: 0.5, angleDeg: 2 },
    });
    await saved(defaultLabSettings);
  });
});

describe('GET and PUT /api/account/time-zone', () => {
  it("starts with none (the lab's stands in), keeps the user's own and refuses an unknown zone", async () => {
    const doctor = await createCaseDoctor(t);
    const url = '/api/account/time-zone';
    expect((await t.as(doctor.token, { method: 'GET', url })).json()).toEqual({ timeZone: null, labTimeZone: 'UTC' });
    const put = (timeZone: string) => t.as(doctor.token, { method: 'PUT', url, payload: { timeZone } });
    expect((await put('Europe/Berlin')).statusCode).toBe(200);
    const refused = await put('Europe/Atlantis');
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Time zone must be a time zone name such as Europe/Berlin or UTC');
    await saved({ ...defaultLabSettings, timeZone: 'America/Chicago' });
    expect((await t.as(doctor.token, { method: 'GET', url })).json()).toEqual({
      timeZone: 'Europe/Berlin',
      labTimeZone: 'America/Chicago',
    });
    await saved(defaultLabSettings);
  });
});
