import { userMessages } from '@portal/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResetTokens } from '../src/db/schema.ts';
import {
  allRows,
  type CreatedDoctor,
  createDoctor,
  createStaff,
  formData,
  outboxMessages,
  uniqueName,
} from './helpers/factories.ts';
import { readableMail, resetTokensIn } from './helpers/mail.ts';
import { createTestApp, testAdmin, type TestApp } from './helpers/test-app.ts';

interface UserRow {
  UserId: number;
  UserName: string;
  FirstName: string;
  LastName: string;
  Email: string;
  MobileNo: string;
  RoleId: number;
  RoleName: string | null;
  ProfilePic: string | null;
  createdAt: string;
  userType: 'Web' | 'Doctor';
}

const page = { dashboard: 1, users: 4 };

let t: TestApp;
let admin: string;
let adminUserId: number;
let usersStaff: { userId: number; roleId: number; token: string; username: string };
let dashboardStaff: string;
let doctor: CreatedDoctor;
/** A role with no pages that tests hand to the users they make. */
let plainRoleId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  usersStaff = await createStaff(t, [page.users]);
  dashboardStaff = (await createStaff(t, [page.dashboard])).token;
  doctor = await createDoctor(t, { active: true });
  plainRoleId = (await createStaff(t, [])).roleId;
  adminUserId = (await listUsers()).find((row) => row.UserName === testAdmin.username)!.UserId;
});
afterAll(() => t.close());

async function listUsers(): Promise<UserRow[]> {
  return allRows<UserRow>(t, admin, '/api/user/get_users_list');
}

function userFields(overrides: Record<string, string | number> = {}) {
  const username = uniqueName('user');
  return {
    username,
    firstname: 'Grace',
    lastname: 'Hopper',
    password: 'first-passphrase',
    email: `${username}@lab.test`,
    mobileNo: '+1 555 0199',
    roleId: plainRoleId,
    userType: 'Web',
    ...overrides,
  };
}

function addUser(token: string | null, fields: Record<string, string | number>) {
  return t.as(token, { method: 'POST', url: '/api/user/add', payload: formData(fields) });
}

function editUser(token: string | null, userId: number, fields: Record<string, string | number>) {
  return t.as(token, { method: 'PUT', url: `/api/user/edit/${userId}`, payload: formData(fields) });
}

/** Adds a user as the administrator and returns its id and fields. */
async function createUser(overrides: Record<string, string | number> = {}) {
  const fields = userFields(overrides);
  const response = await addUser(admin, fields);
  expect(response.statusCode).toBe(200);
  return { userId: response.json<{ UserId: number }>().UserId, ...fields };
}

const loginStatus = async (username: string, password: string) =>
  (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } })).statusCode;

describe('GET /user/get_users_list', () => {
  it('lists Web users with their role name and no password hash', async () => {
    const created = await createUser();
    const response = await t.as(usersStaff.token, { method: 'GET', url: '/api/user/get_users_list' });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toMatch(/password|argon/i);
    const rows = await allRows<UserRow>(t, usersStaff.token, '/api/user/get_users_list');
    expect(rows.find((row) => row.UserId === created.userId)).toEqual({
      UserId: created.userId,
      UserName: created.username,
      FirstName: 'Grace',
      LastName: 'Hopper',
      Email: created.email,
      MobileNo: '+1 555 0199',
      RoleId: plainRoleId,
      RoleName: expect.any(String),
      ProfilePic: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      userType: 'Web',
    });
    expect(rows).toContainEqual(expect.objectContaining({ UserName: 'admin', RoleId: -1, RoleName: 'Administrator' }));
  });

  it('leaves out doctors and deleted users', async () => {
    const deleted = await createUser();
    expect((await t.as(admin, { method: 'DELETE', url: `/api/user/delete/${deleted.userId}` })).statusCode).toBe(200);
    const rows = await listUsers();
    expect(rows.every((row) => row.userType === 'Web')).toBe(true);
    expect(rows.map((row) => row.UserId)).not.toContain(doctor.userId);
    expect(rows.map((row) => row.UserId)).not.toContain(deleted.userId);
  });

  it('refuses a missing token (401), a Web user without the Users page and a doctor (403)', async () => {
    expect((await t.as(null, { method: 'GET', url: '/api/user/get_users_list' })).statusCode).toBe(401);
    expect((await t.as(dashboardStaff, { method: 'GET', url: '/api/user/get_users_list' })).statusCode).toBe(403);
    expect((await t.as(doctor.token!, { method: 'GET', url: '/api/user/get_users_list' })).statusCode).toBe(403);
  });
});

describe('POST /user/add', () => {
  it('adds a Web user who can then sign in', async () => {
    const fields = userFields();
    const response = await addUser(usersStaff.token, fields);
    expect(response.statusCode).toBe(200);
    const { message, UserId } = response.json<{ message: string; UserId: number }>();
    expect(message).toBe('User added successfully');
    expect(await listUsers()).toContainEqual(
      expect.objectContaining({ UserId, UserName: fields.username, RoleId: plainRoleId, userType: 'Web' }),
    );
    expect(await loginStatus(fields.username, fields.password)).toBe(200);
  });

  it('without a password, invites the user by e-mail to set their own: a 7-day invitation link that works once', async () => {
    const { password: _none, ...fields } = userFields();
    const response = await addUser(usersStaff.token, fields);
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe(userMessages.invited);
    await t.app.outbox.deliverDue();
    const mails = (await outboxMessages(t)).map(readableMail).filter((raw) => raw.includes(`To: ${fields.email}`));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('Subject: You are invited to Aligner Portal');
    expect(mails[0]).toContain(`Your username is ${fields.username}.`);
    expect(mails[0]).toContain('valid for 7 days');
    const [token] = resetTokensIn(mails[0]!);
    const verified = await t.app.inject({ method: 'GET', url: `/api/doctor/verify_token/${token}` });
    expect(verified.json()).toMatchObject({ success: true, invitation: { invitedBy: 'Sam Staff' } });
    const [link] = await t.app.db
      .select({ days: sql<number>`round(extract(epoch from ${passwordResetTokens.expiresAt} - now()) / 86400)::int` })
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, response.json().UserId));
    expect(link!.days).toBe(7);
    // Nobody knows the account's password until the link sets one.
    expect(await loginStatus(fields.username, 'first-passphrase')).toBe(401);
    const chosen = 'my-own-staff-passphrase';
    const reset = (newPassword: string) =>
      t.app.inject({ method: 'POST', url: '/api/doctor/reset_password', payload: { token, newPassword } });
    expect((await reset(chosen)).statusCode).toBe(200);
    expect((await reset('another-staff-passphrase')).statusCode).toBe(400);
    expect(await loginStatus(fields.username, chosen)).toBe(200);
  });

  it('mails nothing and invites nobody when the user is refused', async () => {
    const { password: _none, ...fields } = userFields({ roleId: 999_999 });
    expect((await addUser(admin, fields)).statusCode).toBe(400);
    await t.app.outbox.deliverDue();
    expect((await outboxMessages(t)).filter((raw) => raw.includes(`To: ${fields.email}`))).toEqual([]);
  });

  it('gives every required field its message when the form is empty', async () => {
    const before = await listUsers();
    const response = await addUser(admin, { userType: 'Web' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({
      username: 'Username is required',
      firstname: 'First Name is required',
      lastname: 'Last Name is required',
      email: 'Email is required',
      mobileNo: 'Mobile No is required',
      roleId: 'Role is required',
    });
    expect(await listUsers()).toEqual(before);
  });

  it('counts whitespace-only fields as empty', async () => {
    const response = await addUser(
      admin,
      userFields({
        username: '   ',
        firstname: ' ',
        lastname: '\t',
        email: ' ',
        mobileNo: ' ',
        roleId: ' ',
        password: '      ',
      }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({
      username: 'Username is required',
      firstname: 'First Name is required',
      lastname: 'Last Name is required',
      email: 'Email is required',
      mobileNo: 'Mobile No is required',
      roleId: 'Role is required',
      password: 'Password is required',
    });
  });

  it('checks the length of the username and password, the email shape and the role', async () => {
    const before = await listUsers();
    const response = await addUser(
      admin,
      userFields({ username: 'ab', email: 'not-an-email', password: '12345', roleId: 'abc' }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({
      username: 'Username must be at least 3 characters',
      email: 'Email is not valid',
      password: 'Password must be at least 12 characters',
      roleId: 'Role is required',
    });
    for (const email of ['a@b', 'a b@c.d', '@c.d']) {
      const bad = await addUser(admin, userFields({ email }));
      expect(bad.json().fieldErrors).toEqual({ email: 'Email is not valid' });
    }
    expect(await listUsers()).toEqual(before);
  });

  it('refuses a role that does not exist and the Doctor role', async () => {
    const before = await listUsers();
    for (const roleId of [999999, 19, 99999999999]) {
      const response = await addUser(admin, userFields({ roleId }));
      expect(response.statusCode).toBe(400);
      expect(response.json().fieldErrors).toEqual({ roleId: 'Role is not valid' });
    }
    expect(await listUsers()).toEqual(before);
  });

  it('refuses a taken username in any letter case, also one a doctor holds, with 409', async () => {
    const existing = await createUser();
    const before = await listUsers();
    for (const username of [existing.username, existing.username.toUpperCase(), 'ADMIN', doctor.username]) {
      const response = await addUser(admin, userFields({ username }));
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        message: 'Username is already taken',
        fieldErrors: { username: 'Username is already taken' },
      });
    }
    expect(await listUsers()).toEqual(before);
  });

  it('lets only the administrator give the administrator role', async () => {
    const before = await listUsers();
    const refused = await addUser(usersStaff.token, userFields({ roleId: -1 }));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Only the administrator can manage administrator accounts');
    expect(await listUsers()).toEqual(before);

    const fields = userFields({ roleId: -1 });
    expect((await addUser(admin, fields)).statusCode).toBe(200);
    const newAdmin = await t.login(fields.username, fields.password);
    expect((await t.as(newAdmin, { method: 'GET', url: '/api/permission/get_menu/-1' })).json()).toHaveLength(6);
  });

  it("refuses userType 'Doctor' (no doctor without a doctor record) and ignores unknown fields", async () => {
    const before = await listUsers();
    const doctorType = await addUser(admin, userFields({ userType: 'Doctor' }));
    expect(doctorType.statusCode).toBe(400);
    expect(Object.keys(doctorType.json().fieldErrors)).toEqual(['userType']);
    expect(await listUsers()).toEqual(before);

    const fields = userFields({
      isActive: 'false',
      tokenVersion: 99,
      deletedAt: '2020-01-01',
      profilePic: '/api/uploads/users/1/0000000000000000.png',
    });
    const response = await addUser(admin, fields);
    expect(response.statusCode).toBe(200);
    const row = (await listUsers()).find((user) => user.UserId === response.json().UserId);
    expect(row).toMatchObject({ userType: 'Web', ProfilePic: null });
    expect(await loginStatus(fields.username, fields.password)).toBe(200);
  });

  it('asks for multipart/form-data (415)', async () => {
    const response = await t.as(admin, { method: 'POST', url: '/api/user/add', payload: userFields() });
    expect(response.statusCode).toBe(415);
  });

  it('refuses a missing token (401), a Web user without the Users page and a doctor (403), adding nothing', async () => {
    const before = await listUsers();
    expect((await addUser(null, userFields())).statusCode).toBe(401);
    expect((await addUser(dashboardStaff, userFields())).statusCode).toBe(403);
    expect((await addUser(doctor.token!, userFields())).statusCode).toBe(403);
    expect(await listUsers()).toEqual(before);
  });
});

describe('PUT /user/edit/:id', () => {
  it('changes the details and keeps the password when it is empty', async () => {
    const user = await createUser();
    const token = await t.login(user.username, user.password);
    const username = uniqueName('renamed');
    const response = await editUser(usersStaff.token, user.userId, {
      ...user,
      username,
      firstname: 'Ada',
      lastname: 'King',
      email: `${username}@lab.test`,
      mobileNo: '5550000',
      password: '',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'User updated successfully' });
    expect((await listUsers()).find((row) => row.UserId === user.userId)).toMatchObject({
      UserName: username,
      FirstName: 'Ada',
      LastName: 'King',
      Email: `${username}@lab.test`,
      MobileNo: '5550000',
    });
    expect(await loginStatus(username, user.password)).toBe(200);
    // The details changed, not the password: the user's session goes on.
    expect((await t.as(token, { method: 'GET', url: `/api/permission/get_menu/${plainRoleId}` })).statusCode).toBe(200);
  });

  it('treats a missing password like an empty one', async () => {
    const user = await createUser();
    const { password, ...withoutPassword } = user;
    expect((await editUser(admin, user.userId, { ...withoutPassword, firstname: 'Changed' })).statusCode).toBe(200);
    expect(await loginStatus(user.username, password)).toBe(200);
  });

  it('sets a new password: old tokens and the old password stop working, the new one works', async () => {
    const user = await createUser();
    const oldToken = await t.login(user.username, user.password);
    const response = await editUser(admin, user.userId, { ...user, password: 'second-passphrase' });
    expect(response.statusCode).toBe(200);
    expect((await t.as(oldToken, { method: 'GET', url: `/api/permission/get_menu/${plainRoleId}` })).statusCode).toBe(
      401,
    );
    expect(await loginStatus(user.username, user.password)).toBe(401);
    const newToken = await t.login(user.username, 'second-passphrase');
    expect((await t.as(newToken, { method: 'GET', url: `/api/permission/get_menu/${plainRoleId}` })).statusCode).toBe(
      200,
    );
  });

  it("ignores userType 'Doctor': the user stays a Web user", async () => {
    const user = await createUser();
    expect((await editUser(admin, user.userId, { ...user, password: '', userType: 'Doctor' })).statusCode).toBe(200);
    expect((await listUsers()).find((row) => row.UserId === user.userId)?.userType).toBe('Web');
  });

  it('gives the spec messages for bad input and changes nothing', async () => {
    const user = await createUser();
    const before = await listUsers();
    const response = await editUser(admin, user.userId, {
      username: 'ab',
      firstname: '',
      lastname: ' ',
      email: 'x@y',
      mobileNo: '',
      roleId: '',
      password: '123',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({
      username: 'Username must be at least 3 characters',
      firstname: 'First Name is required',
      lastname: 'Last Name is required',
      email: 'Email is not valid',
      mobileNo: 'Mobile No is required',
      roleId: 'Role is required',
      password: 'Password must be at least 12 characters',
    });
    expect((await editUser(admin, user.userId, { ...user, roleId: 19 })).statusCode).toBe(400);
    expect(await listUsers()).toEqual(before);
  });

  it("refuses another user's username with 409", async () => {
    const first = await createUser();
    const second = await createUser();
    const before = await listUsers();
    const response = await editUser(admin, second.userId, {
      ...second,
      username: first.username.toUpperCase(),
      password: '',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().fieldErrors).toEqual({ username: 'Username is already taken' });
    expect(await listUsers()).toEqual(before);
  });

  it('answers 404 for a user that does not exist, a doctor and a deleted user', async () => {
    const deleted = await createUser();
    await t.as(admin, { method: 'DELETE', url: `/api/user/delete/${deleted.userId}` });
    for (const userId of [999999, doctor.userId, deleted.userId]) {
      const response = await editUser(admin, userId, userFields());
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('User not found');
    }
    expect(await loginStatus(doctor.username, doctor.password)).toBe(200);
  });

  it('lets only the administrator edit an administrator or promote to one', async () => {
    const user = await createUser();
    const before = await listUsers();
    const promote = await editUser(usersStaff.token, user.userId, { ...user, roleId: -1, password: '' });
    expect(promote.statusCode).toBe(403);
    const takeOver = await editUser(usersStaff.token, adminUserId, {
      ...userFields({ roleId: -1 }),
      username: 'admin',
      password: 'taken-over-pass',
    });
    expect(takeOver.statusCode).toBe(403);
    expect(await listUsers()).toEqual(before);
    expect(await loginStatus('admin', testAdmin.password)).toBe(200);
  });

  it('lets an administrator step down while another remains', async () => {
    const second = await createUser({ roleId: -1 });
    const token = await t.login(second.username, second.password);
    const response = await editUser(token, second.userId, { ...second, roleId: plainRoleId, password: '' });
    expect(response.statusCode).toBe(200);
    expect((await listUsers()).find((row) => row.UserId === second.userId)?.RoleId).toBe(plainRoleId);
    expect((await t.as(token, { method: 'GET', url: '/api/user/get_users_list' })).statusCode).toBe(403);
  });

  it('refuses a missing token (401), a Web user without the Users page and a doctor (403), changing nothing', async () => {
    const user = await createUser();
    const before = await listUsers();
    const change = { ...user, firstname: 'Hijacked', password: 'hijacked-pass' };
    expect((await editUser(null, user.userId, change)).statusCode).toBe(401);
    expect((await editUser(dashboardStaff, user.userId, change)).statusCode).toBe(403);
    expect((await editUser(doctor.token!, user.userId, change)).statusCode).toBe(403);
    expect(await listUsers()).toEqual(before);
    expect(await loginStatus(user.username, user.password)).toBe(200);
  });
});

describe('DELETE /user/delete/:id', () => {
  it('soft-deletes: gone from the list, its token refused, it cannot sign in, and the name is free again', async () => {
    const user = await createUser();
    const token = await t.login(user.username, user.password);
    const response = await t.as(usersStaff.token, { method: 'DELETE', url: `/api/user/delete/${user.userId}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'User deleted successfully' });
    expect((await listUsers()).map((row) => row.UserId)).not.toContain(user.userId);
    expect((await t.as(token, { method: 'GET', url: `/api/permission/get_menu/${plainRoleId}` })).statusCode).toBe(401);
    expect(await loginStatus(user.username, user.password)).toBe(401);
    expect((await addUser(admin, userFields({ username: user.username }))).statusCode).toBe(200);
  });

  it('refuses deleting yourself with 409', async () => {
    const before = await listUsers();
    for (const [token, userId] of [
      [admin, adminUserId],
      [usersStaff.token, usersStaff.userId],
    ] as const) {
      const response = await t.as(token, { method: 'DELETE', url: `/api/user/delete/${userId}` });
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe('You cannot delete your own account');
    }
    expect(await listUsers()).toEqual(before);
  });

  it('lets only the administrator delete an administrator', async () => {
    const other = await createUser({ roleId: -1 });
    const before = await listUsers();
    for (const userId of [adminUserId, other.userId]) {
      expect((await t.as(usersStaff.token, { method: 'DELETE', url: `/api/user/delete/${userId}` })).statusCode).toBe(
        403,
      );
    }
    expect(await listUsers()).toEqual(before);
    expect((await t.as(admin, { method: 'DELETE', url: `/api/user/delete/${other.userId}` })).statusCode).toBe(200);
  });

  it('answers 404 for a user that does not exist, a doctor, a deleted user, and 400 for a bad id', async () => {
    const deleted = await createUser();
    await t.as(admin, { method: 'DELETE', url: `/api/user/delete/${deleted.userId}` });
    for (const userId of [999999, doctor.userId, deleted.userId]) {
      const response = await t.as(admin, { method: 'DELETE', url: `/api/user/delete/${userId}` });
      expect(response.statusCode).toBe(404);
    }
    expect((await t.as(admin, { method: 'DELETE', url: '/api/user/delete/abc' })).statusCode).toBe(400);
    expect(await loginStatus(doctor.username, doctor.password)).toBe(200);
  });

  it('refuses a missing token (401), a Web user without the Users page and a doctor (403), deleting nothing', async () => {
    const user = await createUser();
    const before = await listUsers();
    const request = { method: 'DELETE' as const, url: `/api/user/delete/${user.userId}` };
    expect((await t.as(null, request)).statusCode).toBe(401);
    expect((await t.as(dashboardStaff, request)).statusCode).toBe(403);
    expect((await t.as(doctor.token!, request)).statusCode).toBe(403);
    expect(await listUsers()).toEqual(before);
  });
});

describe('the last administrator', () => {
  // Its own app: the shared one has gained administrators in the tests above.
  let own: TestApp;
  let first: string;
  let firstId: number;
  let ownRoleId: number;
  beforeAll(async () => {
    own = await createTestApp();
    first = await own.adminToken();
    const list = await own.as(first, { method: 'GET', url: '/api/user/get_users_list' });
    firstId = list.json<UserRow[]>()[0]!.UserId;
    const role = await own.as(first, { method: 'POST', url: '/api/role/add', payload: { roleName: 'Staff' } });
    ownRoleId = role.json<{ RoleId: number }>().RoleId;
  });
  afterAll(() => own.close());

  const ownUsers = async () => allRows<UserRow>(own, first, '/api/user/get_users_list');

  it('cannot demote themselves (409)', async () => {
    const before = await ownUsers();
    const response = await own.as(first, {
      method: 'PUT',
      url: `/api/user/edit/${firstId}`,
      payload: formData({ ...userFields(), username: testAdmin.username, roleId: ownRoleId, password: '' }),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('The last administrator cannot be removed or demoted');
    expect(await ownUsers()).toEqual(before);
  });

  it('survives two administrators deleting each other at the same time, round after round', async () => {
    let survivor = { userId: firstId, username: testAdmin.username, password: testAdmin.password, token: first };
    for (let round = 0; round < 3; round++) {
      const username = uniqueName('admin');
      const added = await own.as(survivor.token, {
        method: 'POST',
        url: '/api/user/add',
        payload: formData(userFields({ username, roleId: -1, password: 'rival-passphrase' })),
      });
      expect(added.statusCode).toBe(200);
      const rival = {
        userId: added.json<{ UserId: number }>().UserId,
        username,
        password: 'rival-passphrase',
        token: await own.login(username, 'rival-passphrase'),
      };

      const answers = await Promise.all([
        own.as(survivor.token, { method: 'DELETE', url: `/api/user/delete/${rival.userId}` }),
        own.as(rival.token, { method: 'DELETE', url: `/api/user/delete/${survivor.userId}` }),
      ]);
      // One wins; the other is refused as the last administrator, or finds its own session ended.
      expect([
        [200, 409],
        [200, 401],
      ]).toContainEqual(answers.map((answer) => answer.statusCode).sort());
      const remaining = [];
      for (const candidate of [survivor, rival]) {
        const token = await own.login(candidate.username, candidate.password).catch(() => null);
        if (token) remaining.push({ ...candidate, token });
      }
      expect(remaining).toHaveLength(1);
      survivor = remaining[0]!;
    }
  });
});
