import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, roles } from '../src/db/schema.ts';
import { nulMessage } from '../src/lib/nul-text.ts';
import { allRows, createDoctor, doctorFields, firstCityOf, formData } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

// PostgreSQL refuses \0 in text: every NUL that reached a query was a 500.
let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t?.close());

const roleNames = async () => (await t.app.db.select({ name: roles.roleName }).from(roles)).map((row) => row.name);

describe('a NUL byte in any text is a 400 naming the field, never a 500', () => {
  it('fuzzer find (seed 1223063926): POST /api/role/add with a duplicate roleName key holding \\u0000 is 400, no role added', async () => {
    const before = await roleNames();
    const response = await t.as(admin, {
      method: 'POST',
      url: '/api/role/add',
      headers: { 'content-type': 'application/json' },
      payload: '{"roleName":"a","roleName":"b\\u0000c","description":"fuzz"}',
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({ message: nulMessage, fieldErrors: { roleName: nulMessage } });
    expect(await roleNames()).toEqual(before);
  });

  it('a role name with NUL (one key) is 400', async () => {
    const response = await t.as(admin, {
      method: 'POST',
      url: '/api/role/add',
      payload: { roleName: 'x\u0000y', description: 'd' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: nulMessage });
  });

  it('a search with NUL is 400', async () => {
    const doctor = await createDoctor(t, { active: true });
    const response = await t.as(doctor.token!, {
      method: 'GET',
      url: `/api/case/get_cases_by_status/all/${doctor.userId}?search=${encodeURIComponent('a\u0000b')}`,
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({ message: nulMessage, fieldErrors: { search: nulMessage } });
  });

  it('a registration (multipart) with NUL in a field or a clinic is 400 and leaves no account', async () => {
    const cityId = await firstCityOf(t);
    const clinic = {
      clinicId: 0,
      clinicName: 'Smile',
      countryId: 1,
      cityId,
      contactNo: '123456',
      address: '1 Main St',
    };
    const cases: Record<string, string>[] = [
      { firstname: 'Ada\u0000' },
      // JSON spells the NUL \u0000: it appears only once the field is parsed.
      { clinicList: JSON.stringify([{ ...clinic, address: 'Main\u0000St' }]) },
    ];
    for (const overrides of cases) {
      const fields = doctorFields({ clinicList: JSON.stringify([clinic]), ...overrides });
      const response = await t.app.inject({ method: 'POST', url: '/api/doctor/add', payload: formData(fields) });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ message: nulMessage });
      const list = await allRows<{ UserName: string }>(t, admin, '/api/doctor/get_doctors_list');
      expect(list.map((doctor) => doctor.UserName)).not.toContain(fields.username);
    }
  });

  it('a sign-in with NUL in the username is 400 and audited as a failed sign-in', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'secadmin\u0000', password: 'whatever-pass' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: nulMessage, fieldErrors: { username: nulMessage } });
    const row = await vi.waitFor(
      async () => {
        const [latest] = await t.app.db
          .select()
          .from(auditLog)
          .where(eq(auditLog.actorName, 'secadmin\\u0000'))
          .orderBy(desc(auditLog.auditId));
        if (!latest) throw new Error('not written yet');
        return latest;
      },
      { timeout: scaled(5000) },
    );
    expect(row).toMatchObject({
      action: 'auth.login',
      outcome: 'failure',
      statusCode: 400,
      actorName: 'secadmin\\u0000',
    });
  });
});
