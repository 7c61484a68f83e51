import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allRows,
  type CreatedDoctor,
  createDoctor,
  createStaff,
  doctorEditFields,
  formData,
  outboxMessages,
  uniqueName,
} from './helpers/factories.ts';
import { readableMail, resetTokensIn } from './helpers/mail.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/** Staff who hold one page try to give themselves, or someone they make, more (docs/decisions/access.md § Roles). */

const page = { dashboard: 1, roles: 2, rolePermissions: 3, users: 4, doctors: 5, addCase: 6 };
type Staff = Awaited<ReturnType<typeof createStaff>>;

let t: TestApp;
let admin: string;
let usersStaff: Staff;
let permissionsStaff: Staff;
/** Roles the attackers aim at: one with the Dashboard (every patient's case), one with no page. */
let dashboardRoleId: number;
let emptyRoleId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  usersStaff = await createStaff(t, [page.users]);
  permissionsStaff = await createStaff(t, [page.rolePermissions]);
  dashboardRoleId = (await createStaff(t, [page.dashboard])).roleId;
  emptyRoleId = (await createStaff(t, [])).roleId;
});
afterAll(() => t.close());

function userForm(roleId: number, overrides: Record<string, string | number> = {}) {
  const username = uniqueName('climber');
  return formData({
    username,
    firstname: 'Eve',
    lastname: 'Climber',
    password: 'climber-pass',
    email: `${username}@lab.test`,
    mobileNo: '5550199',
    roleId,
    userType: 'Web',
    ...overrides,
  });
}

async function roleOf(userId: number): Promise<number | undefined> {
  const list = await allRows<{ UserId: number; RoleId: number }>(t, admin, '/api/user/get_users_list');
  return list.find((row) => row.UserId === userId)?.RoleId;
}

async function pagesOf(roleId: number): Promise<number[]> {
  const response = await t.as(admin, { method: 'GET', url: `/api/permission/get_role_permissions/${roleId}` });
  return response
    .json<{ PageId: number; HasAccess: boolean }[]>()
    .filter((row) => row.HasAccess)
    .map((row) => row.PageId);
}

const readsEveryCase = (token: string) => t.as(token, { method: 'GET', url: '/api/case/get_all_stats/0' });

describe('a user with only the Users page cannot raise anyone', () => {
  it('refuses moving itself into another role with 403, and its role stays', async () => {
    for (const roleId of [dashboardRoleId, emptyRoleId]) {
      const response = await t.as(usersStaff.token, {
        method: 'PUT',
        url: `/api/user/edit/${usersStaff.userId}`,
        payload: userForm(roleId, { username: usersStaff.username, password: '' }),
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe('You cannot change your own role');
    }
    expect(await roleOf(usersStaff.userId)).toBe(usersStaff.roleId);
    expect((await readsEveryCase(usersStaff.token)).statusCode).toBe(403);
  });

  it('refuses creating a user in a role with a page it lacks, and creates nobody', async () => {
    const form = userForm(dashboardRoleId);
    const username = String(form.get('username'));
    const response = await t.as(usersStaff.token, { method: 'POST', url: '/api/user/add', payload: form });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(
      'You can only give a user a role with pages you have yourself (missing: /dashboard)',
    );
    const list = await allRows<{ UserName: string }>(t, admin, '/api/user/get_users_list');
    expect(list.some((row) => row.UserName === username)).toBe(false);
    // And so the accomplice it meant to make cannot sign in and read the cases.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password: 'climber-pass' },
    });
    expect(login.statusCode).toBe(401);
  });

  it('refuses moving a user it made into a stronger role', async () => {
    const made = await t.as(usersStaff.token, { method: 'POST', url: '/api/user/add', payload: userForm(emptyRoleId) });
    expect(made.statusCode).toBe(200);
    const userId = made.json<{ UserId: number }>().UserId;
    const username = uniqueName('moved');
    const response = await t.as(usersStaff.token, {
      method: 'PUT',
      url: `/api/user/edit/${userId}`,
      payload: userForm(dashboardRoleId, { username, password: '' }),
    });
    expect(response.statusCode).toBe(403);
    expect(await roleOf(userId)).toBe(emptyRoleId);
  });

  it("refuses editing a stronger user's account (a new password would be a takeover)", async () => {
    const strong = await createStaff(t, [page.dashboard, page.users]);
    const response = await t.as(usersStaff.token, {
      method: 'PUT',
      url: `/api/user/edit/${strong.userId}`,
      payload: userForm(strong.roleId, { username: strong.username, password: 'taken-over-pass' }),
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(
      'You can only edit users whose role has pages you have yourself (missing: /dashboard)',
    );
    expect((await t.as(strong.token, { method: 'GET', url: '/api/case/get_all_stats/0' })).statusCode).toBe(200);
  });

  it('still hands out roles whose pages it holds (its own, or none)', async () => {
    for (const roleId of [usersStaff.roleId, emptyRoleId]) {
      const response = await t.as(usersStaff.token, {
        method: 'POST',
        url: '/api/user/add',
        payload: userForm(roleId),
      });
      expect(response.statusCode).toBe(200);
    }
  });
});

describe('a user with only the Role Permissions page cannot grant itself or others more', () => {
  it("refuses granting its own role any page with 403, and its role's pages stay", async () => {
    for (const pageId of Object.values(page)) {
      const response = await t.as(permissionsStaff.token, {
        method: 'POST',
        url: `/api/permission/add/${permissionsStaff.roleId}/${pageId}`,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe("You cannot change your own role's pages");
    }
    expect(await pagesOf(permissionsStaff.roleId)).toEqual([page.rolePermissions]);
    expect((await readsEveryCase(permissionsStaff.token)).statusCode).toBe(403);
  });

  it("refuses revoking its own role's page too", async () => {
    const response = await t.as(permissionsStaff.token, {
      method: 'DELETE',
      url: `/api/permission/delete/${permissionsStaff.roleId}/${page.rolePermissions}`,
    });
    expect(response.statusCode).toBe(403);
    expect(await pagesOf(permissionsStaff.roleId)).toEqual([page.rolePermissions]);
  });

  it('refuses granting another role a page it lacks, and grants one it holds', async () => {
    const refused = await t.as(permissionsStaff.token, {
      method: 'POST',
      url: `/api/permission/add/${emptyRoleId}/${page.dashboard}`,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('You can only grant pages you have yourself (missing: /dashboard)');
    // A coded refusal (issue 43): the web app shows it in the reader's language.
    expect(refused.json()).toMatchObject({ code: 'grantPagesNotHeld', params: { pages: '/dashboard' } });
    const granted = await t.as(permissionsStaff.token, {
      method: 'POST',
      url: `/api/permission/add/${emptyRoleId}/${page.rolePermissions}`,
    });
    expect(granted.statusCode).toBe(200);
    expect(await pagesOf(emptyRoleId)).toEqual([page.rolePermissions]);
    await t.as(admin, { method: 'DELETE', url: `/api/permission/delete/${emptyRoleId}/${page.rolePermissions}` });
  });

  it('leaves the administrator free to grant and hand out anything', async () => {
    const granted = await t.as(admin, { method: 'POST', url: `/api/permission/add/${emptyRoleId}/${page.dashboard}` });
    expect(granted.statusCode).toBe(200);
    await t.as(admin, { method: 'DELETE', url: `/api/permission/delete/${emptyRoleId}/${page.dashboard}` });
    const made = await t.as(admin, { method: 'POST', url: '/api/user/add', payload: userForm(dashboardRoleId) });
    expect(made.statusCode).toBe(200);
  });
});

/**
 * A doctor reads their patients' cases and approves plans, which no page opens: a password or
 * e-mail set by staff would be a takeover, so only the administrator sets them, and the
 * reset link staff may ask for goes to the doctor's own address (issue 20).
 */
describe('a user with only the Doctors page cannot take a doctor over', () => {
  let doctorsStaff: Staff;
  beforeAll(async () => {
    doctorsStaff = await createStaff(t, [page.doctors]);
  });

  const credentialsForbidden =
    "Only the administrator can set a doctor's password or e-mail address; send the doctor a reset link instead";

  const editDoctor = async (token: string, doctor: CreatedDoctor, overrides: Record<string, string>) =>
    t.as(token, {
      method: 'PUT',
      url: `/api/doctor/edit/${doctor.doctorId}`,
      payload: formData(await doctorEditFields(t, doctor, overrides)),
    });

  const signsIn = async (username: string, password: string) =>
    (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } })).statusCode ===
    200;

  const emailOf = async (doctor: CreatedDoctor) =>
    (await t.as(admin, { method: 'GET', url: `/api/doctor/get_doctor_detail_by_user_Id/${doctor.userId}` })).json<
      { Email: string }[]
    >()[0]!.Email;

  async function mailsTo(email: string): Promise<string[]> {
    await t.app.outbox.deliverDue();
    return (await outboxMessages(t)).filter((raw) => raw.includes(`To: ${email}`)).map(readableMail);
  }

  it("refuses setting a doctor's password with 403, and the doctor's password and sessions stay", async () => {
    const doctor = await createDoctor(t, { active: true });
    // A password the rules accept: the 403 is for who sets it, not for what it is.
    const response = await editDoctor(doctorsStaff.token, doctor, { password: 'taken-over-by-staff' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: credentialsForbidden, fieldErrors: { password: credentialsForbidden } });
    expect(await signsIn(doctor.username, 'taken-over-by-staff')).toBe(false);
    expect(await signsIn(doctor.username, doctor.password)).toBe(true);
    const ownCases = await t.as(doctor.token!, { method: 'GET', url: '/api/case/get_all_stats/0' });
    expect(ownCases.statusCode).toBe(200);
  });

  it("refuses changing a doctor's e-mail with 403 (a reset link would follow it), keeping the address", async () => {
    const doctor = await createDoctor(t, { active: true });
    const response = await editDoctor(doctorsStaff.token, doctor, { email: 'attacker@evil.test' });
    expect(response.statusCode).toBe(403);
    expect(response.json().fieldErrors).toEqual({ email: credentialsForbidden });
    expect(await emailOf(doctor)).toBe(doctor.email);
    // The letter case of the same address is no change.
    const sameAddress = await editDoctor(doctorsStaff.token, doctor, { email: doctor.email.toUpperCase() });
    expect(sameAddress.statusCode).toBe(200);
  });

  it('still edits the rest of a doctor (name, status) without a password', async () => {
    const doctor = await createDoctor(t, { active: true });
    const response = await editDoctor(doctorsStaff.token, doctor, { lastname: 'Renamed', isActive: 'false' });
    expect(response.statusCode).toBe(200);
    expect(await signsIn(doctor.username, doctor.password)).toBe(false);
  });

  it("asks for a reset link that only the doctor's address receives; the doctor is told when it is used", async () => {
    const doctor = await createDoctor(t, { active: true });
    const response = await t.as(doctorsStaff.token, {
      method: 'POST',
      url: `/api/doctor/request_password_reset/${doctor.doctorId}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toMatch(/token=|reset-password/);
    const [mail] = await mailsTo(doctor.email);
    const [token] = resetTokensIn(mail!);
    expect(token).toBeDefined();
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/doctor/reset_password',
      payload: { token, newPassword: 'chosen-by-owner' },
    });
    expect(reset.statusCode).toBe(200);
    const mails = await mailsTo(doctor.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]).toContain('Subject: Your Aligner Portal password was changed');
    expect(mails[1]).not.toContain('chosen-by-owner');
  });

  it("lets the administrator set a doctor's password and e-mail, and tells the old address", async () => {
    const doctor = await createDoctor(t, { active: true });
    const newEmail = `moved.${doctor.email}`;
    const response = await editDoctor(admin, doctor, { password: 'set-by-admin', email: newEmail });
    expect(response.statusCode, response.body).toBe(200);
    expect(await signsIn(doctor.username, 'set-by-admin')).toBe(true);
    expect(await emailOf(doctor)).toBe(newEmail);
    const toOld = await mailsTo(doctor.email);
    expect(toOld).toHaveLength(1);
    expect(toOld[0]).toContain('Subject: Your Aligner Portal password and e-mail address was changed');
    expect(toOld[0]).not.toContain('set-by-admin');
  });
});

describe("staff who set a Web user's password or e-mail", () => {
  it('tell the user at the old address', async () => {
    const target = await createStaff(t, []);
    const email = `${target.username}@lab.test`;
    const response = await t.as(usersStaff.token, {
      method: 'PUT',
      url: `/api/user/edit/${target.userId}`,
      payload: userForm(target.roleId, { username: target.username, email, password: 'reset-by-staff' }),
    });
    expect(response.statusCode, response.body).toBe(200);
    await t.app.outbox.deliverDue();
    const mails = (await outboxMessages(t)).filter((raw) => raw.includes(`To: ${email}`)).map(readableMail);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('Subject: Your Aligner Portal password was changed');
  });
});
