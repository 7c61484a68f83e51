import { registrationSucceeded } from '@portal/contract';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cases, caseStatusHistory, roles, users } from '../src/db/schema.ts';
import { caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import {
  createDoctor,
  createStaff,
  doctorEditFields,
  doctorFields,
  firstCityOf,
  formData,
  mailedResetToken,
} from './helpers/factories.ts';
import { createTestApp, testAdmin, type TestApp } from './helpers/test-app.ts';

/**
 * docs/quality/access.md, Mass assignment and docs/quality/input.md, Schemas (unknown properties): `roleId`, `isActive`,
 * `userId` and any field a caller may not set are ignored or refused, and the stored rows
 * say so.
 */

type Fields = Record<string, string | number | boolean>;

let t: TestApp;
let admin: string;
let adminUserId: number;
let cityId: number;
/** A role with every page but not the administrator's: what an attacker would most like to have. */
let powerfulRoleId: number;

/** What the tests observed, for the figure: requests sent during the tests, and tests that held. */
const tally = { requests: 0, tests: 0, held: 0 };
let isCounting = false;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  adminUserId = Number(decodeJwt(admin).sub);
  cityId = await firstCityOf(t);
  powerfulRoleId = (await createStaff(t, [1, 2, 3, 4, 5, 6])).roleId;
  // Every request the tests send goes through inject (t.as, submitCase, sign-ins).
  const inject = t.app.inject.bind(t.app);
  t.app.inject = ((...args: Parameters<typeof inject>) => {
    if (isCounting) tally.requests++;
    return inject(...args);
  }) as typeof inject;
  isCounting = true;
});
afterEach(({ task }) => {
  tally.tests++;
  if (task.result?.state === 'pass') tally.held++;
});
afterAll(async () => {
  console.log(
    `[figure] mass assignment: ${tally.requests} requests in ${tally.tests} tests, ` +
      `${tally.held} of ${tally.tests} held (fields ignored or refused, rows as the caller may set them)`,
  );
  await t.close();
});

async function accountOf(userName: string) {
  const [row] = await t.app.db
    .select({
      userId: users.userId,
      roleId: users.roleId,
      isActive: users.isActive,
      userType: users.userType,
      userName: users.userName,
    })
    .from(users)
    .where(eq(users.userName, userName));
  return row;
}

const loginStatus = async (username: string, password: string) =>
  (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } })).statusCode;

const register = (token: string | null, fields: Fields) =>
  t.as(token, { method: 'POST', url: '/api/doctor/add', payload: formData(fields) });

const registrationFields = (overrides: Fields) =>
  doctorFields({
    clinicList: JSON.stringify([
      { clinicId: 0, clinicName: 'Smile Clinic', countryId: 1, cityId, contactNo: '123456', address: '1 Main St' },
    ]),
    ...overrides,
  });

describe('POST /doctor/add: self-registration is always inactive with role 19', () => {
  it('ignores isActive=true and roleId=-1 (or a staff role) from an anonymous registration', async () => {
    const claims: Fields[] = [
      { isActive: 'true', roleId: -1 },
      { isActive: '1', roleId: -1 },
      { isActive: 'true', roleId: powerfulRoleId },
      { isActive: 'true' },
    ];
    for (const claim of claims) {
      const fields = registrationFields(claim);
      const response = await register(null, fields);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().message).toBe(registrationSucceeded);
      expect(await accountOf(String(fields.username))).toMatchObject({
        roleId: 19,
        isActive: false,
        userType: 'Doctor',
      });
      expect(await loginStatus(String(fields.username), String(fields.password))).toBe(403);
    }
  });

  it('ignores them too from a signed-in doctor and from staff without the Doctors page', async () => {
    const doctor = await createDoctor(t, { active: true });
    const casesStaff = await createStaff(t, [1, 6]);
    for (const token of [doctor.token!, casesStaff.token]) {
      const fields = registrationFields({ isActive: 'true', roleId: -1 });
      expect((await register(token, fields)).statusCode).toBe(200);
      expect(await accountOf(String(fields.username))).toMatchObject({ roleId: 19, isActive: false });
    }
  });

  it("refuses userType 'Web' and ignores a userId: a registration only ever makes a new doctor", async () => {
    const asWebUser = registrationFields({ userType: 'Web' });
    const refused = await register(null, asWebUser);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ message: expect.any(String), fieldErrors: { userType: expect.any(String) } });
    expect(await accountOf(String(asWebUser.username))).toBeUndefined();

    const naming = registrationFields({ userId: adminUserId, UserId: adminUserId });
    expect((await register(null, naming)).statusCode).toBe(200);
    const account = await accountOf(String(naming.username));
    expect(account).toMatchObject({ userType: 'Doctor', roleId: 19, isActive: false });
    expect(account!.userId).not.toBe(adminUserId);
    expect(await loginStatus(testAdmin.username, testAdmin.password)).toBe(200);
  });
});

describe('PUT /doctor/edit/{own id}: a doctor cannot change their role, status or username', () => {
  it('keeps role 19, active and the username whatever the doctor sends', async () => {
    const doctor = await createDoctor(t, { active: true });
    for (const claim of [
      { roleId: -1, isActive: 'true' },
      { roleId: powerfulRoleId, isActive: 'false' },
      { roleId: -1, isActive: '0', username: 'admin' },
    ] as Fields[]) {
      const fields = await doctorEditFields(t, doctor, { ...claim, userType: 'Web', firstname: 'Self' });
      const response = await t.as(doctor.token!, {
        method: 'PUT',
        url: `/api/doctor/edit/${doctor.doctorId}`,
        payload: formData(fields),
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(await accountOf(doctor.username)).toMatchObject({
        roleId: 19,
        isActive: true,
        userType: 'Doctor',
        userName: doctor.username,
      });
      // The token still works: the doctor neither deactivated nor promoted themselves.
      const own = await t.as(doctor.token!, {
        method: 'GET',
        url: `/api/doctor/get_doctor_detail_by_user_Id/${doctor.userId}`,
      });
      expect(own.json()[0]).toMatchObject({ RoleId: 19, IsActive: true, FirstName: 'Self' });
    }
    // The administrator's account is untouched by the 'admin' username sent above.
    expect(await accountOf(testAdmin.username)).toMatchObject({ roleId: -1, userType: 'Web' });
  });

  it("cannot edit another doctor's record by sending its id in the form", async () => {
    const doctor = await createDoctor(t, { active: true });
    const victim = await createDoctor(t, { active: true });
    const fields = await doctorEditFields(t, doctor, {
      firstname: 'Mallory',
      doctorId: victim.doctorId,
      userId: victim.userId,
    });
    const response = await t.as(doctor.token!, {
      method: 'PUT',
      url: `/api/doctor/edit/${doctor.doctorId}`,
      payload: formData(fields),
    });
    expect(response.statusCode).toBe(200);
    const victimRow = await t.as(admin, {
      method: 'GET',
      url: `/api/doctor/get_doctor_detail_by_user_Id/${victim.userId}`,
    });
    expect(victimRow.json()[0].FirstName).toBe('Ada');
  });
});

describe('POST /case/add: the case belongs to the doctor who sends it', () => {
  it("files a case sent with another doctor's userId under the sender's own id", async () => {
    const doctor = await createCaseDoctor(t);
    const other = await createCaseDoctor(t);
    const response = await submitCase(
      t,
      doctor.token,
      caseForm(
        caseFields(doctor.clinicId, {
          userId: other.userId,
          doctorUserId: other.userId,
          createdBy: other.userId,
          status: 'delivered',
          trackingNo: 'AL-0000-EVIL00',
          caseId: 1,
        }),
      ),
    );
    expect(response.statusCode, response.body).toBe(200);
    const { CaseId, TrackingNo } = response.json<{ CaseId: number; TrackingNo: string }>();
    expect(TrackingNo).not.toBe('AL-0000-EVIL00');
    const [stored] = await t.app.db
      .select({
        doctorUserId: cases.doctorUserId,
        createdBy: cases.createdBy,
        status: cases.status,
        trackingNo: cases.trackingNo,
      })
      .from(cases)
      .where(eq(cases.caseId, CaseId));
    expect(stored).toEqual({
      doctorUserId: doctor.userId,
      createdBy: doctor.userId,
      status: 'new',
      trackingNo: TrackingNo,
    });
    const history = await t.app.db
      .select({ changedBy: caseStatusHistory.changedBy, toStatus: caseStatusHistory.toStatus })
      .from(caseStatusHistory)
      .where(eq(caseStatusHistory.caseId, CaseId));
    expect(history).toEqual([{ changedBy: doctor.userId, toStatus: 'new' }]);
    const othersList = await t.as(other.token, {
      method: 'GET',
      url: `/api/case/get_cases_by_status/all/${other.userId}`,
    });
    expect(othersList.json()).toEqual([]);
  });
});

describe('POST /user/add and PUT /user/edit: only the administrator gives role -1', () => {
  it('refuses roleId -1 from staff with the Users page, on add and on edit, changing nothing', async () => {
    const usersStaff = await createStaff(t, [4]);
    const target = await createStaff(t, [1]);
    const fields = (overrides: Fields) => ({
      firstname: 'Sam',
      lastname: 'Staff',
      password: 'staff-pass-2',
      mobileNo: '5550101',
      roleId: -1,
      ...overrides,
    });
    const add = await t.as(usersStaff.token, {
      method: 'POST',
      url: '/api/user/add',
      payload: formData(fields({ username: 'wouldbeadmin', email: 'wouldbe@lab.test', userType: 'Web' })),
    });
    expect(add.statusCode).toBe(403);
    expect(await accountOf('wouldbeadmin')).toBeUndefined();
    for (const userId of [target.userId, usersStaff.userId]) {
      const username = userId === target.userId ? target.username : usersStaff.username;
      const edit = await t.as(usersStaff.token, {
        method: 'PUT',
        url: `/api/user/edit/${userId}`,
        payload: formData(fields({ username, email: `${username}@lab.test` })),
      });
      expect(edit.statusCode).toBe(403);
      expect((await accountOf(username))!.roleId).not.toBe(-1);
    }
  });
});

describe('unknown JSON properties are dropped', () => {
  it('POST /role/add and PUT /role/edit ignore RoleId and roleId in the body', async () => {
    const added = await t.as(admin, {
      method: 'POST',
      url: '/api/role/add',
      payload: { roleName: 'Sneaky', description: 'x', RoleId: -1, roleId: -1, isAdmin: true },
    });
    expect(added.statusCode, added.body).toBe(200);
    const roleId = added.json<{ RoleId: number }>().RoleId;
    expect(roleId).toBeGreaterThanOrEqual(100);
    const edited = await t.as(admin, {
      method: 'PUT',
      url: `/api/role/edit/${roleId}`,
      payload: { roleName: 'Sneaky 2', description: 'y', RoleId: -1, roleId: 19 },
    });
    expect(edited.statusCode).toBe(200);
    const rows = await t.app.db.select({ roleId: roles.roleId, roleName: roles.roleName }).from(roles);
    expect(rows.find((row) => row.roleId === roleId)!.roleName).toBe('Sneaky 2');
    expect(rows.find((row) => row.roleId === -1)!.roleName).not.toMatch(/Sneaky/);
    expect(rows.find((row) => row.roleId === 19)!.roleName).not.toMatch(/Sneaky/);
  });

  it('POST /auth/login takes role and type from the account, not from the body', async () => {
    const doctor = await createDoctor(t, { active: true });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: doctor.username, password: doctor.password, roleId: -1, userType: 'Web', userId: 1 },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ roleId: 19, userType: 'Doctor', userId: doctor.userId });
    expect(decodeJwt(response.json().token)).toMatchObject({ sub: String(doctor.userId), roleId: 19 });
  });

  it('PUT /case/status changes only the status, whatever else the body names', async () => {
    const doctor = await createCaseDoctor(t);
    const other = await createCaseDoctor(t);
    const submitted = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId)));
    const { CaseId, TrackingNo } = submitted.json<{ CaseId: number; TrackingNo: string }>();
    const response = await t.as(admin, {
      method: 'PUT',
      url: `/api/case/status/${CaseId}`,
      payload: { status: 'inprogress', doctorUserId: other.userId, trackingNo: 'AL-0000-EVIL00', caseId: 1 },
    });
    expect(response.statusCode, response.body).toBe(200);
    const [stored] = await t.app.db
      .select({ doctorUserId: cases.doctorUserId, status: cases.status, trackingNo: cases.trackingNo })
      .from(cases)
      .where(eq(cases.caseId, CaseId));
    expect(stored).toEqual({ doctorUserId: doctor.userId, status: 'inprogress', trackingNo: TrackingNo });
  });

  it("POST /doctor/reset_password sets only the link's user's password, whatever userId the body names", async () => {
    const doctor = await createDoctor(t, { active: true });
    const token = await mailedResetToken(t, doctor);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/doctor/reset_password',
      payload: { token, newPassword: 'taken-over-pass', userId: adminUserId, username: testAdmin.username },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await loginStatus(testAdmin.username, 'taken-over-pass')).toBe(401);
    expect(await loginStatus(testAdmin.username, testAdmin.password)).toBe(200);
    expect(await loginStatus(doctor.username, 'taken-over-pass')).toBe(200);
  });
});
