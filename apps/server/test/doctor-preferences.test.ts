import { doctorPreferenceKeys, caseFields as caseFieldTable } from '@portal/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, doctorPreferences } from '../src/db/schema.ts';
import { createCaseDoctor } from './helpers/case-factories.ts';
import { createStaff } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/** GET and PUT /doctor/preferences: a doctor's usual case choices (docs/decisions/case-form.md § Doctor defaults). */

let t: TestApp;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let other: Awaited<ReturnType<typeof createCaseDoctor>>;

beforeAll(async () => {
  t = await createTestApp();
  doctor = await createCaseDoctor(t);
  other = await createCaseDoctor(t);
});
afterAll(() => t.close());

const url = '/api/doctor/preferences';
const read = (token: string | null) => t.as(token, { method: 'GET', url });
const save = (token: string | null, payload: Record<string, unknown>) => t.as(token, { method: 'PUT', url, payload });

const usual = {
  midline: 'Maintain',
  overjet: 'Maintain',
  overbite: 'Improve',
  crossBite: 'Maintain',
  rightCanine: 'Class-I (if possible)',
  leftCanine: 'Class-I (if possible)',
  rightMolar: 'Improve',
  leftMolar: 'Improve',
  iprPreference: 'Second preference',
  proclination: 'First preference',
  expansion: 'Third preference',
  extraction: 'Fourth preference',
  ipr: 'As contacts become accessible',
  auxilliaryType: 'EBT',
  toothNumbering: 'FDI',
  shipment: 'Upon request only',
  alignerShipment: 'Complete',
};

describe('GET /doctor/preferences', () => {
  it('answers an empty object before any save', async () => {
    const response = await read(other.token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({});
  });
});

describe('PUT /doctor/preferences', () => {
  it('keeps every preference field of the case field table, answers them back, and records the save', async () => {
    expect(Object.keys(usual).sort()).toEqual(doctorPreferenceKeys.map((key) => caseFieldTable[key].sent).sort());
    const response = await save(doctor.token, usual);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: 'Case defaults saved' });
    expect((await read(doctor.token)).json()).toEqual(usual);
    // Another doctor's stay their own.
    expect((await read(other.token)).json()).toEqual({});
    await vi.waitFor(
      async () => {
        const rows = await t.app.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.action, 'doctor.preferences'), eq(auditLog.actorUserId, doctor.userId)));
        expect(rows.map((row) => [row.target, row.outcome])).toEqual([[`user:${doctor.userId}`, 'success']]);
      },
      { timeout: scaled(5000), interval: 20 },
    );
  });

  it('replaces what was saved: a choice left out or blank has no default, unknown keys are dropped', async () => {
    await save(doctor.token, usual);
    const response = await save(doctor.token, {
      midline: 'Improve',
      toothNumbering: 'Palmer',
      overjet: '',
      extra: 'x',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await read(doctor.token)).json()).toEqual({ midline: 'Improve', toothNumbering: 'Palmer' });
  });

  it('refuses what the case form refuses, with the message under each field, and keeps what was saved', async () => {
    await save(doctor.token, { midline: 'Maintain' });
    const [before] = await t.app.db.select().from(doctorPreferences).where(eq(doctorPreferences.userId, doctor.userId));
    const response = await save(doctor.token, { midline: 'Sideways', toothNumbering: 'Roman' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({
      midline: 'Midline is not valid',
      toothNumbering: 'Tooth Numbering System is not valid',
    });
    const sameRank = await save(doctor.token, { iprPreference: 'First preference', proclination: 'First preference' });
    expect(sameRank.statusCode).toBe(400);
    expect(sameRank.json().fieldErrors).toEqual({ proclination: 'First preference is already chosen for IPR' });
    const [after] = await t.app.db.select().from(doctorPreferences).where(eq(doctorPreferences.userId, doctor.userId));
    expect(after).toEqual(before);
    expect((await save(doctor.token, [] as unknown as Record<string, unknown>)).statusCode).toBe(400);
  });

  it('is 401 without a session and 403 for staff, the administrator too: staff have no case defaults', async () => {
    expect((await read(null)).statusCode).toBe(401);
    expect((await save(null, usual)).statusCode).toBe(401);
    const staff = await createStaff(t, [1, 6]);
    const admin = await t.adminToken();
    for (const token of [staff.token, admin]) {
      expect((await read(token)).statusCode).toBe(403);
      expect((await save(token, usual)).statusCode).toBe(403);
    }
    const rows = await t.app.db.select().from(doctorPreferences);
    expect(rows.map((row) => row.userId)).not.toContain(staff.userId);
  });
});
