import { passwordMessages } from '@portal/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PasswordHasher } from '../src/auth/passwords.ts';
import { users } from '../src/db/schema.ts';
import {
  createDoctor,
  createStaff,
  doctorEditFields,
  doctorFields,
  firstCityOf,
  formData,
  latestResetTokenTo,
  uniqueName,
} from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/**
 * Every place a password is chosen takes at least 12 characters and no common or leaked
 * password (ASVS 2.1.1, 2.1.7); a stored password of the old rule still signs in.
 */
let t: TestApp;
let admin: string;
let roleId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  roleId = (await createStaff(t, [])).roleId;
}, scaled(60_000));
afterAll(() => t?.close());

/** Long enough, but on the bundled list: as typed, with another case, and padded with digits and symbols. */
const commonPasswords = ['1qaz2wsx3edc', 'Password2024!', 'iloveyou123456', '123456789012'];
const tooShort = 'Short-pass1';

const signsIn = async (username: string, password: string) =>
  (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } })).statusCode;

function userFields(overrides: Record<string, string | number> = {}) {
  const username = uniqueName('pw');
  return {
    username,
    firstname: 'Paula',
    lastname: 'Word',
    password: 'a-fine-passphrase',
    email: `${username}@lab.test`,
    mobileNo: '5550123',
    roleId,
    userType: 'Web',
    ...overrides,
  };
}

/** Each refusal names the field with the contract's message, and the request changes nothing. */
function expectRefused(response: { statusCode: number; json(): unknown }, field: string, message: string) {
  expect(response.statusCode).toBe(400);
  expect(response.json()).toMatchObject({ message, fieldErrors: { [field]: message } });
}

describe('choosing a password', () => {
  it('POST /user/add: refuses a short or common password and adds no user', async () => {
    for (const [password, message] of [
      [tooShort, passwordMessages.tooShort],
      ...commonPasswords.map((common) => [common, passwordMessages.common]),
    ] as const) {
      const fields = userFields({ password });
      expectRefused(
        await t.as(admin, { method: 'POST', url: '/api/user/add', payload: formData(fields) }),
        'password',
        message,
      );
      expect(await t.app.db.select().from(users).where(eq(users.userName, fields.username))).toEqual([]);
    }
  });

  it('PUT /user/edit/:id: refuses a common password and keeps the old one', async () => {
    const fields = userFields();
    const added = await t.as(admin, { method: 'POST', url: '/api/user/add', payload: formData(fields) });
    const userId = added.json<{ UserId: number }>().UserId;
    const edit = await t.as(admin, {
      method: 'PUT',
      url: `/api/user/edit/${userId}`,
      payload: formData({ ...fields, password: 'Password2024!' }),
    });
    expectRefused(edit, 'password', passwordMessages.common);
    expect(await signsIn(fields.username, fields.password)).toBe(200);
  });

  it('POST /doctor/add (registration and the Doctors screen): refuses a common password, registers no one', async () => {
    const cityId = await firstCityOf(t);
    const clinicList = JSON.stringify([
      { clinicId: 0, clinicName: 'Smile', countryId: 1, cityId, contactNo: '123456', address: '1 Main St' },
    ]);
    for (const token of [null, admin]) {
      const fields = doctorFields({ clinicList, password: 'qwertyuiop123' });
      const response = await t.as(token, { method: 'POST', url: '/api/doctor/add', payload: formData(fields) });
      expectRefused(response, 'password', passwordMessages.common);
      expect(
        await t.app.db
          .select()
          .from(users)
          .where(eq(users.userName, String(fields.username))),
      ).toEqual([]);
    }
  });

  it("PUT /doctor/edit/:id: refuses a common password, by staff and as one's own change", async () => {
    const doctor = await createDoctor(t, { active: true });
    const byStaff = await t.as(admin, {
      method: 'PUT',
      url: `/api/doctor/edit/${doctor.doctorId}`,
      payload: formData(await doctorEditFields(t, doctor, { password: 'Password2024!' })),
    });
    expectRefused(byStaff, 'password', passwordMessages.common);
    const own = await t.as(doctor.token!, {
      method: 'PUT',
      url: `/api/doctor/edit/${doctor.doctorId}`,
      payload: formData(
        await doctorEditFields(t, doctor, { password: 'iloveyou123456', currentPassword: doctor.password }),
      ),
    });
    expectRefused(own, 'password', passwordMessages.common);
    expect(await signsIn(doctor.username, doctor.password)).toBe(200);
  });

  it('POST /doctor/reset_password: refuses a common password and leaves the link usable', async () => {
    const doctor = await createDoctor(t, { active: true });
    const asked = await t.as(admin, { method: 'POST', url: `/api/doctor/request_password_reset/${doctor.doctorId}` });
    expect(asked.statusCode).toBe(200);
    // The link goes only to the doctor's address.
    const token = await latestResetTokenTo(t, doctor.email);
    const reset = (newPassword: string) =>
      t.app.inject({ method: 'POST', url: '/api/doctor/reset_password', payload: { token, newPassword } });
    expectRefused(await reset('1qaz2wsx3edc'), 'newPassword', passwordMessages.common);
    expect((await reset('a-fine-new-passphrase')).statusCode).toBe(200);
    expect(await signsIn(doctor.username, 'a-fine-new-passphrase')).toBe(200);
  });
});

describe('signing in with a password set under the old rule', () => {
  it('still signs in with a 6-character password: the rule applies when a password is set', async () => {
    const fields = userFields();
    const added = await t.as(admin, { method: 'POST', url: '/api/user/add', payload: formData(fields) });
    const userId = added.json<{ UserId: number }>().UserId;
    await t.app.db
      .update(users)
      .set({ passwordHash: await t.app.passwords.hash('old-pw') })
      .where(eq(users.userId, userId));
    expect(await signsIn(fields.username, 'old-pw')).toBe(200);
  });
});

describe('a password hashed at another cost', () => {
  it('signs in whatever PASSWORD_HASH_* says now: the hash carries its own parameters', async () => {
    const fields = userFields();
    const added = await t.as(admin, { method: 'POST', url: '/api/user/add', payload: formData(fields) });
    const userId = added.json<{ UserId: number }>().UserId;
    const owaspCost = new PasswordHasher({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    expect(t.config.passwordHashing).not.toEqual({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    const storedHash = await owaspCost.hash('set-at-another-cost');
    expect(storedHash).toContain('$m=19456,t=2,p=1$');
    await t.app.db.update(users).set({ passwordHash: storedHash }).where(eq(users.userId, userId));
    expect(await signsIn(fields.username, 'set-at-another-cost')).toBe(200);
    expect(await signsIn(fields.username, 'not-the-password')).toBe(401);
    // And the other way round: a hash at this app's cost verifies under the OWASP one.
    expect(await owaspCost.verify(await t.app.passwords.hash('cheap-hash'), 'cheap-hash')).toBe(true);
    expect(await t.app.passwords.hash('cheap-hash')).toContain('$m=1024,t=1,p=1$');
  });
});
