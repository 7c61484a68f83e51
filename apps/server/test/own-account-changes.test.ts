import { ownChangeMessages } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDoctor,
  createStaff,
  doctorEditFields,
  formData,
  outboxMessages,
  type CreatedDoctor,
} from './helpers/factories.ts';
import { readableMail } from './helpers/mail.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * A stolen session is not a takeover: one's own password or e-mail changes only with the
 * current password, and the old address hears of it
 * (docs/decisions/sign-in-and-sessions.md § Changing one's own password or e-mail).
 */

type Fields = Record<string, string | number | boolean>;

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

/** What reached one address, once the outbox has run. */
async function mailsTo(email: string): Promise<string[]> {
  await t.app.outbox.deliverDue();
  return (await outboxMessages(t)).filter((raw) => raw.includes(`To: ${email}`)).map(readableMail);
}

const editDoctor = async (token: string, doctor: CreatedDoctor, overrides: Fields) =>
  t.as(token, {
    method: 'PUT',
    url: `/api/doctor/edit/${doctor.doctorId}`,
    payload: formData(await doctorEditFields(t, doctor, overrides)),
  });

const signsIn = async (username: string, password: string) =>
  (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } })).statusCode === 200;

describe("a doctor's own profile", () => {
  it('refuses a new password without the current one (400) or with a wrong one (403), changing nothing', async () => {
    const doctor = await createDoctor(t, { active: true });
    const missing = await editDoctor(doctor.token!, doctor, { password: 'stolen-new-pass' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      message: ownChangeMessages.currentPasswordRequired,
      fieldErrors: { currentPassword: ownChangeMessages.currentPasswordRequired },
    });
    const wrong = await editDoctor(doctor.token!, doctor, { password: 'stolen-new-pass', currentPassword: 'guess' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().message).toBe(ownChangeMessages.currentPasswordWrong);
    expect(await signsIn(doctor.username, doctor.password)).toBe(true);
    expect(await signsIn(doctor.username, 'stolen-new-pass')).toBe(false);
    expect(await mailsTo(doctor.email)).toEqual([]);
  });

  it('refuses a new e-mail without the current password, keeping the old address', async () => {
    const doctor = await createDoctor(t, { active: true });
    const response = await editDoctor(doctor.token!, doctor, { email: 'attacker@evil.test' });
    expect(response.statusCode).toBe(400);
    const detail = await t.as(admin, {
      method: 'GET',
      url: `/api/doctor/get_doctor_detail_by_user_Id/${doctor.userId}`,
    });
    expect(detail.json<{ Email: string }[]>()[0]!.Email).toBe(doctor.email);
  });

  it('changes the password with the current one and tells the address, with no secret in the mail', async () => {
    const doctor = await createDoctor(t, { active: true });
    const response = await editDoctor(doctor.token!, doctor, {
      password: 'brand-new-pass',
      currentPassword: doctor.password,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await signsIn(doctor.username, 'brand-new-pass')).toBe(true);
    const mails = await mailsTo(doctor.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('Subject: Your Aligner Portal password was changed');
    expect(mails[0]).not.toContain('brand-new-pass');
    expect(mails[0]).not.toContain(doctor.password);
  });

  it('changes the e-mail with the current password and tells the OLD address', async () => {
    const doctor = await createDoctor(t, { active: true });
    const newEmail = `moved.${doctor.email}`;
    const response = await editDoctor(doctor.token!, doctor, { email: newEmail, currentPassword: doctor.password });
    expect(response.statusCode, response.body).toBe(200);
    const toOld = await mailsTo(doctor.email);
    expect(toOld).toHaveLength(1);
    expect(toOld[0]).toContain('Subject: Your Aligner Portal e-mail address was changed');
    expect(await mailsTo(newEmail)).toEqual([]);
  });

  it('asks nothing for other fields, and sends nothing', async () => {
    const doctor = await createDoctor(t, { active: true });
    const response = await editDoctor(doctor.token!, doctor, {
      firstname: 'Renamed',
      email: doctor.email.toUpperCase(),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await mailsTo(doctor.email)).toEqual([]);
  });
});

describe('staff editing someone else is not an own change', () => {
  // Other Doctors staff may not set either (privilege-escalation.test.ts).
  it("lets the administrator set a doctor's password and e-mail without a current password", async () => {
    const doctor = await createDoctor(t, { active: true });
    const response = await editDoctor(admin, doctor, { password: 'set-by-staff', email: `lab.${doctor.email}` });
    expect(response.statusCode, response.body).toBe(200);
    expect(await signsIn(doctor.username, 'set-by-staff')).toBe(true);
  });
});

describe("a Web user's own account on the Users page", () => {
  const userForm = (staff: { username: string; roleId: number }, overrides: Fields = {}) =>
    formData({
      username: staff.username,
      firstname: 'Sam',
      lastname: 'Staff',
      password: '',
      email: `${staff.username}@lab.test`,
      mobileNo: '5550101',
      roleId: staff.roleId,
      ...overrides,
    });

  it('needs the current password to change its own password, then tells its address', async () => {
    const staff = await createStaff(t, [4]);
    const url = `/api/user/edit/${staff.userId}`;
    const missing = await t.as(staff.token, {
      method: 'PUT',
      url,
      payload: userForm(staff, { password: 'new-staff-pass' }),
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fieldErrors).toEqual({ currentPassword: ownChangeMessages.currentPasswordRequired });
    expect(await signsIn(staff.username, 'staff-passphrase')).toBe(true);

    const done = await t.as(staff.token, {
      method: 'PUT',
      url,
      payload: userForm(staff, { password: 'new-staff-pass', currentPassword: 'staff-passphrase' }),
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(await signsIn(staff.username, 'new-staff-pass')).toBe(true);
    const mails = await mailsTo(`${staff.username}@lab.test`);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('password was changed');
  });

  it("lets the administrator change another user's password and e-mail without one", async () => {
    const staff = await createStaff(t, []);
    const response = await t.as(admin, {
      method: 'PUT',
      url: `/api/user/edit/${staff.userId}`,
      payload: userForm(staff, { password: 'admin-set-pass', email: `new.${staff.username}@lab.test` }),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await signsIn(staff.username, 'admin-set-pass')).toBe(true);
  });
});
