import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDoctor, createStaff, formData, uniqueName } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

interface RoleRow {
  RoleId: number;
  RoleName: string;
  Description: string;
  RequiresSecondFactor: boolean;
}

const page = { dashboard: 1, roles: 2, rolePermissions: 3, users: 4, doctors: 5, addCase: 6 };

let t: TestApp;
let admin: string;
let rolesStaff: string;
let dashboardStaff: string;
let doctor: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  rolesStaff = (await createStaff(t, [page.roles])).token;
  dashboardStaff = (await createStaff(t, [page.dashboard])).token;
  doctor = (await createDoctor(t, { active: true })).token!;
});
afterAll(() => t.close());

async function listRoles(): Promise<RoleRow[]> {
  const response = await t.as(admin, { method: 'GET', url: '/api/role/get_roles_list' });
  expect(response.statusCode).toBe(200);
  return response.json<RoleRow[]>();
}

async function addRole(roleName = uniqueName('Role'), description = 'made in a test'): Promise<RoleRow> {
  const response = await t.as(admin, { method: 'POST', url: '/api/role/add', payload: { roleName, description } });
  expect(response.statusCode).toBe(200);
  return {
    RoleId: response.json<{ RoleId: number }>().RoleId,
    RoleName: roleName,
    Description: description,
    RequiresSecondFactor: false,
  };
}

describe('GET /role/get_roles_list', () => {
  it('lists RoleId, RoleName, Description and RequiresSecondFactor with the seeded Administrator and Doctor', async () => {
    const roles = await listRoles();
    expect(roles).toContainEqual({
      RoleId: -1,
      RoleName: 'Administrator',
      Description: 'Full access',
      RequiresSecondFactor: false,
    });
    expect(roles).toContainEqual(expect.objectContaining({ RoleId: 19, RoleName: 'Doctor' }));
    for (const role of roles) {
      expect(Object.keys(role).sort()).toEqual(['Description', 'RequiresSecondFactor', 'RoleId', 'RoleName']);
    }
  });

  it('is open to Web users with the Roles, Users or Doctors page', async () => {
    for (const pageId of [page.roles, page.users, page.doctors]) {
      const staff = await createStaff(t, [pageId]);
      const response = await t.as(staff.token, { method: 'GET', url: '/api/role/get_roles_list' });
      expect(response.statusCode).toBe(200);
      expect(response.json<RoleRow[]>().map((role) => role.RoleId)).toContain(-1);
    }
  });

  it('refuses a missing token (401), a Web user without those pages and a doctor (403)', async () => {
    expect((await t.as(null, { method: 'GET', url: '/api/role/get_roles_list' })).statusCode).toBe(401);
    expect((await t.as(dashboardStaff, { method: 'GET', url: '/api/role/get_roles_list' })).statusCode).toBe(403);
    expect((await t.as(doctor, { method: 'GET', url: '/api/role/get_roles_list' })).statusCode).toBe(403);
  });
});

describe('POST /role/add', () => {
  it('adds a role that then appears in the list, trimmed', async () => {
    const roleName = uniqueName('Lab Technician ');
    const response = await t.as(rolesStaff, {
      method: 'POST',
      url: '/api/role/add',
      payload: { roleName: `  ${roleName}  `, description: 'Prints aligners' },
    });
    expect(response.statusCode).toBe(200);
    const { message, RoleId } = response.json<{ message: string; RoleId: number }>();
    expect(message).toBe('Role added successfully');
    expect(await listRoles()).toContainEqual({
      RoleId,
      RoleName: roleName,
      Description: 'Prints aligners',
      RequiresSecondFactor: false,
    });
  });

  it('makes the description optional', async () => {
    const roleName = uniqueName('NoDescription');
    const response = await t.as(admin, { method: 'POST', url: '/api/role/add', payload: { roleName } });
    expect(response.statusCode).toBe(200);
    expect(await listRoles()).toContainEqual({
      RoleId: response.json().RoleId,
      RoleName: roleName,
      Description: '',
      RequiresSecondFactor: false,
    });
  });

  it("requires the role name with 'Role Name is required'; blank counts as empty", async () => {
    const before = await listRoles();
    for (const payload of [{ description: 'x' }, { roleName: '   ', description: 'x' }, { roleName: null }]) {
      const response = await t.as(admin, { method: 'POST', url: '/api/role/add', payload });
      expect(response.statusCode).toBe(400);
      expect(response.json().fieldErrors).toEqual({ roleName: 'Role Name is required' });
    }
    expect(await listRoles()).toEqual(before);
  });

  it('refuses a name longer than 100 characters', async () => {
    const response = await t.as(admin, {
      method: 'POST',
      url: '/api/role/add',
      payload: { roleName: 'x'.repeat(101) },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({ roleName: 'Role Name must be at most 100 characters' });
  });

  it('refuses a duplicate name in any letter case with 409', async () => {
    const existing = await addRole();
    const before = await listRoles();
    for (const roleName of [existing.RoleName, existing.RoleName.toUpperCase(), ' administrator ']) {
      const response = await t.as(admin, { method: 'POST', url: '/api/role/add', payload: { roleName } });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        message: 'A role with this name already exists',
        fieldErrors: { roleName: 'A role with this name already exists' },
      });
    }
    expect(await listRoles()).toEqual(before);
  });

  it('refuses a missing token (401), the wrong page and a doctor (403), adding nothing', async () => {
    const usersStaff = await createStaff(t, [page.users]);
    const before = await listRoles();
    const request = { method: 'POST' as const, url: '/api/role/add', payload: { roleName: uniqueName('Sneaky') } };
    expect((await t.as(null, request)).statusCode).toBe(401);
    expect((await t.as(dashboardStaff, request)).statusCode).toBe(403);
    expect((await t.as(doctor, request)).statusCode).toBe(403);
    // Users-page staff read the list but do not manage roles.
    expect((await t.as(usersStaff.token, request)).statusCode).toBe(403);
    expect(await listRoles()).toEqual(before);
  });
});

describe('PUT /role/edit/:id', () => {
  it('renames a role and changes its description', async () => {
    const role = await addRole();
    const roleName = uniqueName('Renamed');
    const response = await t.as(rolesStaff, {
      method: 'PUT',
      url: `/api/role/edit/${role.RoleId}`,
      payload: { roleName, description: 'new text' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Role updated successfully' });
    expect(await listRoles()).toContainEqual({
      RoleId: role.RoleId,
      RoleName: roleName,
      Description: 'new text',
      RequiresSecondFactor: false,
    });
  });

  it('keeps its own name in another letter case', async () => {
    const role = await addRole();
    const response = await t.as(admin, {
      method: 'PUT',
      url: `/api/role/edit/${role.RoleId}`,
      payload: { roleName: role.RoleName.toUpperCase() },
    });
    expect(response.statusCode).toBe(200);
    expect(await listRoles()).toContainEqual({
      RoleId: role.RoleId,
      RoleName: role.RoleName.toUpperCase(),
      Description: '',
      RequiresSecondFactor: false,
    });
  });

  it("refuses another role's name in any letter case with 409 and changes nothing", async () => {
    const first = await addRole();
    const second = await addRole();
    const before = await listRoles();
    const response = await t.as(admin, {
      method: 'PUT',
      url: `/api/role/edit/${second.RoleId}`,
      payload: { roleName: first.RoleName.toLowerCase() },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().fieldErrors).toEqual({ roleName: 'A role with this name already exists' });
    expect(await listRoles()).toEqual(before);
  });

  it("refuses bad input with 'Role Name is required' and a bad id with 400", async () => {
    const role = await addRole();
    const before = await listRoles();
    const blank = await t.as(admin, {
      method: 'PUT',
      url: `/api/role/edit/${role.RoleId}`,
      payload: { roleName: ' ', description: 'x' },
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().fieldErrors).toEqual({ roleName: 'Role Name is required' });
    const badId = await t.as(admin, { method: 'PUT', url: '/api/role/edit/abc', payload: { roleName: 'Whatever' } });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().fieldErrors).toEqual({ id: 'Id must be a number' });
    expect(await listRoles()).toEqual(before);
  });

  it('refuses renaming the built-in Administrator and Doctor roles with 409, even for the administrator', async () => {
    const before = await listRoles();
    for (const [roleId, roleName] of [
      [-1, 'Administrator'],
      [19, 'Doctor'],
    ] as const) {
      for (const [token, renamed] of [
        [rolesStaff, 'Guest'],
        [admin, 'Lab Team'],
        [rolesStaff, roleName.toUpperCase()],
      ] as const) {
        const response = await t.as(token, {
          method: 'PUT',
          url: `/api/role/edit/${roleId}`,
          payload: { roleName: renamed, description: 'renamed' },
        });
        expect(response.statusCode).toBe(409);
        expect(response.json()).toEqual({
          message: 'This role is built in and cannot be renamed',
          fieldErrors: { roleName: 'This role is built in and cannot be renamed' },
        });
      }
    }
    expect(await listRoles()).toEqual(before);
  });

  it('changes the description of a built-in role under its own name', async () => {
    const response = await t.as(rolesStaff, {
      method: 'PUT',
      url: '/api/role/edit/19',
      payload: { roleName: 'Doctor', description: 'Doctors who register themselves' },
    });
    expect(response.statusCode).toBe(200);
    expect(await listRoles()).toContainEqual({
      RoleId: 19,
      RoleName: 'Doctor',
      Description: 'Doctors who register themselves',
      RequiresSecondFactor: false,
    });
  });

  it('answers 404 for a role that does not exist', async () => {
    const response = await t.as(admin, {
      method: 'PUT',
      url: '/api/role/edit/999999',
      payload: { roleName: uniqueName('Ghost') },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('Role not found');
  });

  it('refuses a missing token (401), the wrong page and a doctor (403), changing nothing', async () => {
    const role = await addRole();
    const before = await listRoles();
    const request = {
      method: 'PUT' as const,
      url: `/api/role/edit/${role.RoleId}`,
      payload: { roleName: uniqueName('Hijacked') },
    };
    expect((await t.as(null, request)).statusCode).toBe(401);
    expect((await t.as(dashboardStaff, request)).statusCode).toBe(403);
    expect((await t.as(doctor, request)).statusCode).toBe(403);
    expect(await listRoles()).toEqual(before);
  });
});

describe('DELETE /role/delete/:id', () => {
  it('deletes an unused role', async () => {
    const role = await addRole();
    const response = await t.as(rolesStaff, { method: 'DELETE', url: `/api/role/delete/${role.RoleId}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Role deleted successfully' });
    expect((await listRoles()).map((row) => row.RoleId)).not.toContain(role.RoleId);
  });

  it('takes the permissions of a deleted role with it', async () => {
    const role = await addRole();
    await t.as(admin, { method: 'POST', url: `/api/permission/add/${role.RoleId}/${page.dashboard}` });
    expect((await t.as(admin, { method: 'DELETE', url: `/api/role/delete/${role.RoleId}` })).statusCode).toBe(200);
    const permissions = await t.as(admin, {
      method: 'GET',
      url: `/api/permission/get_role_permissions/${role.RoleId}`,
    });
    expect(permissions.statusCode).toBe(404);
  });

  it('refuses the built-in Administrator and Doctor roles with 409', async () => {
    const before = await listRoles();
    for (const roleId of [-1, 19]) {
      const response = await t.as(admin, { method: 'DELETE', url: `/api/role/delete/${roleId}` });
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe('This role is built in and cannot be deleted');
    }
    expect(await listRoles()).toEqual(before);
  });

  it('refuses a role held by live users with 409 naming how many hold it', async () => {
    const staff = await createStaff(t, []);
    const before = await listRoles();
    const held = await t.as(admin, { method: 'DELETE', url: `/api/role/delete/${staff.roleId}` });
    expect(held.statusCode).toBe(409);
    expect(held.json().message).toBe('This role is assigned to 1 user and cannot be deleted');
    const second = await t.as(admin, {
      method: 'POST',
      url: '/api/user/add',
      payload: formData({
        username: uniqueName('holder'),
        firstname: 'Second',
        lastname: 'Holder',
        password: 'holder-passphrase',
        email: 'second.holder@lab.test',
        mobileNo: '5550102',
        roleId: staff.roleId,
        userType: 'Web',
      }),
    });
    expect(second.statusCode).toBe(200);
    const twice = await t.as(admin, { method: 'DELETE', url: `/api/role/delete/${staff.roleId}` });
    expect(twice.json().message).toBe('This role is assigned to 2 users and cannot be deleted');
    expect(await listRoles()).toEqual(before);
  });

  it('deletes a role whose only holders were deleted: deleted users hold no role hostage', async () => {
    const staff = await createStaff(t, [1]);
    expect((await t.as(admin, { method: 'DELETE', url: `/api/user/delete/${staff.userId}` })).statusCode).toBe(200);
    const deleted = await t.as(admin, { method: 'DELETE', url: `/api/role/delete/${staff.roleId}` });
    expect(deleted.statusCode).toBe(200);
    expect((await listRoles()).some((role) => role.RoleId === staff.roleId)).toBe(false);
    // The deleted user stays deleted: still no sign-in, and their old token is still refused.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: staff.username, password: 'staff-passphrase' },
        })
      ).statusCode,
    ).toBe(401);
    expect((await t.as(staff.token, { method: 'GET', url: '/api/case/get_all_stats/0' })).statusCode).toBe(401);
  });

  it('answers 404 for a role that does not exist and 400 for a bad id', async () => {
    const missing = await t.as(admin, { method: 'DELETE', url: '/api/role/delete/999999' });
    expect(missing.statusCode).toBe(404);
    const bad = await t.as(admin, { method: 'DELETE', url: '/api/role/delete/1.5' });
    expect(bad.statusCode).toBe(400);
  });

  it('refuses a missing token (401), the wrong page and a doctor (403), deleting nothing', async () => {
    const role = await addRole();
    const before = await listRoles();
    const request = { method: 'DELETE' as const, url: `/api/role/delete/${role.RoleId}` };
    expect((await t.as(null, request)).statusCode).toBe(401);
    expect((await t.as(dashboardStaff, request)).statusCode).toBe(403);
    expect((await t.as(doctor, request)).statusCode).toBe(403);
    expect(await listRoles()).toEqual(before);
  });
});

describe('deleting a role while it is being given out', () => {
  it('never answers 5xx and never leaves a user or permission on a deleted role', async () => {
    for (let round = 0; round < 8; round++) {
      const role = await addRole();
      const username = uniqueName('racer');
      const [deleted, userAdded, granted] = await Promise.all([
        t.as(admin, { method: 'DELETE', url: `/api/role/delete/${role.RoleId}` }),
        t.as(admin, {
          method: 'POST',
          url: '/api/user/add',
          payload: formData({
            username,
            firstname: 'Race',
            lastname: 'Condition',
            password: 'secret-passphrase',
            email: `${username}@lab.test`,
            mobileNo: '5550101',
            roleId: role.RoleId,
            userType: 'Web',
          }),
        }),
        t.as(admin, { method: 'POST', url: `/api/permission/add/${role.RoleId}/${page.dashboard}` }),
      ]);
      expect([200, 409]).toContain(deleted.statusCode);
      expect([200, 400]).toContain(userAdded.statusCode);
      expect([200, 404]).toContain(granted.statusCode);
      const roleRemains = (await listRoles()).some((row) => row.RoleId === role.RoleId);
      expect(roleRemains).toBe(deleted.statusCode === 409);
      if (userAdded.statusCode === 200) expect(deleted.statusCode).toBe(409);
      const permissions = await t.as(admin, {
        method: 'GET',
        url: `/api/permission/get_role_permissions/${role.RoleId}`,
      });
      expect(permissions.statusCode).toBe(roleRemains ? 200 : 404);
    }
  });
});
