import { toothNotationMessages, toothNotations } from '@portal/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countries, users } from '../src/db/schema.ts';
import { createAssistant, createDoctor, createStaff, firstCityOf } from './helpers/factories.ts';
import { accountAudit } from './helpers/account-audit.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/** Each user's tooth notation (docs/decisions/tooth-notation.md). */
let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

const url = '/api/account/tooth-notation';
const read = (token: string | null) => t.as(token, { method: 'GET', url });
const put = (token: string | null, payload?: unknown) =>
  t.as(token, { method: 'PUT', url, ...(payload !== undefined && { payload: payload as object }) });

async function stored(userId: number): Promise<string | null | undefined> {
  const [row] = await t.app.db.select({ value: users.toothNotation }).from(users).where(eq(users.userId, userId));
  return row?.value;
}

async function countryId(isoCode: string): Promise<number> {
  const [row] = await t.app.db
    .select({ id: countries.countryId })
    .from(countries)
    .where(eq(countries.isoCode, isoCode));
  return row!.id;
}

/** A doctor whose only clinic is in the given country. */
async function doctorIn(isoCode: string) {
  const id = await countryId(isoCode);
  const cityId = await firstCityOf(t, id);
  return createDoctor(t, {
    active: true,
    fields: {
      countryId: id,
      clinicList: JSON.stringify([
        { clinicId: 0, clinicName: 'Clinic', countryId: id, cityId, contactNo: '123456', address: '1 Main St' },
      ]),
    },
  });
}

const audit = (user: { userId: number; username: string }) => accountAudit(t, admin, 'account.tooth_notation', user);

describe('GET and PUT /api/account/tooth-notation', () => {
  it("defaults by the clinic's country: Universal in the United States, FDI elsewhere and for staff", async () => {
    const american = await doctorIn('US');
    const german = await doctorIn('DE');
    const assistant = await createAssistant(t, american.token!);
    const staff = await createStaff(t, []);
    expect((await read(american.token!)).json()).toEqual({ toothNotation: 'Universal' });
    expect((await read(assistant.token)).json()).toEqual({ toothNotation: 'Universal' });
    expect((await read(german.token!)).json()).toEqual({ toothNotation: 'FDI' });
    expect((await read(staff.token)).json()).toEqual({ toothNotation: 'FDI' });
    expect((await read(admin)).json()).toEqual({ toothNotation: 'FDI' });
    // Nothing is stored until chosen.
    expect(await stored(american.userId)).toBeNull();
  });

  it("keeps each user's own choice over the default, and answers it as stored", async () => {
    const american = await doctorIn('US');
    const staff = await createStaff(t, []);
    const saved = await put(american.token!, { toothNotation: 'FDI' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ toothNotation: 'FDI' });
    expect((await read(american.token!)).json()).toEqual({ toothNotation: 'FDI' });
    expect(await stored(american.userId)).toBe('FDI');
    for (const toothNotation of toothNotations) {
      const response = await put(staff.token, { toothNotation });
      expect(response.statusCode, response.body).toBe(200);
      expect((await read(staff.token)).json()).toEqual({ toothNotation });
    }
    // The others' are untouched.
    expect(await stored(american.userId)).toBe('FDI');
  });

  it('audits each change with the user as target and the notation before and after', async () => {
    const staff = await createStaff(t, []);
    expect((await put(staff.token, { toothNotation: 'Palmer' })).statusCode).toBe(200);
    expect((await put(staff.token, { toothNotation: 'Universal' })).statusCode).toBe(200);
    const entries = await audit(staff);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      Action: 'account.tooth_notation',
      Outcome: 'success',
      StatusCode: 200,
      UserId: staff.userId,
      Changes: { toothNotation: { before: 'Palmer', after: 'Universal' } },
    });
    expect(entries[1]?.Changes).toEqual({ toothNotation: { before: null, after: 'Palmer' } });
  });

  it('refuses anything but FDI, Universal or Palmer with 400 and a clear message, and changes nothing', async () => {
    const staff = await createStaff(t, []);
    expect((await put(staff.token, { toothNotation: 'Palmer' })).statusCode).toBe(200);
    const refused: unknown[] = [
      { toothNotation: 'fdi' },
      { toothNotation: 'ISO' },
      { toothNotation: '' },
      { toothNotation: ' FDI' },
      { toothNotation: 11 },
      { toothNotation: null },
      { toothNotation: ['FDI'] },
      {},
      { notation: 'FDI' },
    ];
    for (const payload of refused) {
      const response = await put(staff.token, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message, JSON.stringify(payload)).toContain(toothNotationMessages.unsupported);
    }
    expect((await put(staff.token)).statusCode).toBe(400);
    expect((await read(staff.token)).json()).toEqual({ toothNotation: 'Palmer' });
    const audited = await audit(staff);
    expect(audited.filter((entry) => entry.Outcome === 'success')).toHaveLength(1);
    expect(audited.filter((entry) => entry.Changes !== undefined)).toHaveLength(1);
  });

  it('is 401 without a session', async () => {
    expect((await read(null)).statusCode).toBe(401);
    expect((await put(null, { toothNotation: 'FDI' })).statusCode).toBe(401);
    expect((await put('not-a-token', { toothNotation: 'FDI' })).statusCode).toBe(401);
  });
});
