import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDoctor, createStaff, uniqueName } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

interface MenuItem {
  PageId: number;
  PageName: string;
  PageUrl: string;
}
interface RolePermission {
  PageId: number;
  PageName: string;
  HasAccess: boolean;
}

const allPages: MenuItem[] = [
  { PageId: 1, PageName: 'Dashboard', PageUrl: '/dashboard' },
  { PageId: 2, PageName: 'Roles', PageUrl: '/roles' },
  { PageId: 3, PageName: 'Role Permissions', PageUrl: '/rolepermissions' },
  { PageId: 4, PageName: 'Users', PageUrl: '/users' },
  { PageId: 5, PageName: 'Doctors', PageUrl: '/doctors' },
  { PageId: 6, PageName: 'Add Case', PageUrl: '/cases' },
];
const page = { dashboard: 1, roles: 2, rolePermissions: 3, users: 4, doctors: 5, addCase: 6 };

let t: TestApp;
let admin: string;
let permissionsStaff: string;
let dashboardStaff: { token: string; roleId: number };
let doctor: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  permissionsStaff = (await createStaff(t, [page.rolePermissions])).token;
  dashboardStaff = await createStaff(t, [page.dashboard]);
  doctor = (await createDoctor(t, { active: true })).token!;
});
afterAll(() => t.close());

async function addRole(): Promise<number> {
  const response = await t.as(admin, {
    method: 'POST',
    url: '/api/role/add',
    payload: { roleName: uniqueName('Role') },
  });
  return response.json<{ RoleId: number }>().RoleId;
}

async function menuOf(roleId: number): Promise<MenuItem[]> {
  const response = await t.as(admin, { method: 'GET', url: `/api/permission/get_menu/${roleId}` });
  expect(response.statusCode).toBe(200);
  return response.json<MenuItem[]>();
}

async function permissionsOf(roleId: number): Promise<RolePermission[]> {
  const response = await t.as(admin, { method: 'GET', url: `/api/permission/get_role_permissions/${roleId}` });
  expect(response.statusCode).toBe(200);
  return response.json<RolePermission[]>();
}

const grantedIds = async (roleId: number) =>
  (await permissionsOf(roleId)).filter((row) => row.HasAccess).map((row) => row.PageId);

describe('GET /permission/get_menu/:roleId', () => {
  it('gives the administrator all six pages', async () => {
    expect(await menuOf(-1)).toEqual(allPages);
  });

  it("lets any Web user read their own role's menu, without the Role Permissions page", async () => {
    const response = await t.as(dashboardStaff.token, {
      method: 'GET',
      url: `/api/permission/get_menu/${dashboardStaff.roleId}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([allPages[0]]);
    const empty = await createStaff(t, []);
    const none = await t.as(empty.token, { method: 'GET', url: `/api/permission/get_menu/${empty.roleId}` });
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual([]);
  });

  it("keeps another role's menu for the Role Permissions page", async () => {
    const other = await createStaff(t, [page.users, page.doctors]);
    const refused = await t.as(dashboardStaff.token, {
      method: 'GET',
      url: `/api/permission/get_menu/${other.roleId}`,
    });
    expect(refused.statusCode).toBe(403);
    const administrators = await t.as(dashboardStaff.token, { method: 'GET', url: '/api/permission/get_menu/-1' });
    expect(administrators.statusCode).toBe(403);
    const allowed = await t.as(permissionsStaff, { method: 'GET', url: `/api/permission/get_menu/${other.roleId}` });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json()).toEqual([allPages[3], allPages[4]]);
  });

  it('refuses a missing token (401) and a doctor, even for the Doctor role (403)', async () => {
    expect((await t.as(null, { method: 'GET', url: '/api/permission/get_menu/-1' })).statusCode).toBe(401);
    expect((await t.as(doctor, { method: 'GET', url: '/api/permission/get_menu/19' })).statusCode).toBe(403);
  });

  it('answers 400 for a bad role id and 404 for a role that does not exist', async () => {
    const bad = await t.as(admin, { method: 'GET', url: '/api/permission/get_menu/abc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual({ roleId: 'Id must be a number' });
    const missing = await t.as(admin, { method: 'GET', url: '/api/permission/get_menu/999999' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Role not found');
  });
});

describe('GET /permission/get_role_permissions/:roleId', () => {
  it('lists every page with HasAccess for the role', async () => {
    const staff = await createStaff(t, [page.dashboard, page.addCase]);
    const response = await t.as(permissionsStaff, {
      method: 'GET',
      url: `/api/permission/get_role_permissions/${staff.roleId}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(
      allPages.map((item) => ({
        PageId: item.PageId,
        PageName: item.PageName,
        HasAccess: item.PageId === 1 || item.PageId === 6,
      })),
    );
  });

  it('shows the administrator with every page', async () => {
    expect(await permissionsOf(-1)).toEqual(
      allPages.map((item) => ({ PageId: item.PageId, PageName: item.PageName, HasAccess: true })),
    );
  });

  it('answers 404 for a role that does not exist and 400 for a bad id', async () => {
    expect((await t.as(admin, { method: 'GET', url: '/api/permission/get_role_permissions/999999' })).statusCode).toBe(
      404,
    );
    expect((await t.as(admin, { method: 'GET', url: '/api/permission/get_role_permissions/x' })).statusCode).toBe(400);
  });

  it('refuses a missing token (401), a Web user without the page, even for their own role, and a doctor (403)', async () => {
    const url = `/api/permission/get_role_permissions/${dashboardStaff.roleId}`;
    expect((await t.as(null, { method: 'GET', url })).statusCode).toBe(401);
    expect((await t.as(dashboardStaff.token, { method: 'GET', url })).statusCode).toBe(403);
    expect((await t.as(doctor, { method: 'GET', url: '/api/permission/get_role_permissions/19' })).statusCode).toBe(
      403,
    );
  });
});

describe('POST /permission/add/:roleId/:pageId', () => {
  it('grants a page; the role permissions and the menu follow', async () => {
    const roleId = await addRole();
    const response = await t.as(permissionsStaff, {
      method: 'POST',
      url: `/api/permission/add/${roleId}/${page.rolePermissions}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Permission granted successfully' });
    expect(await grantedIds(roleId)).toEqual([page.rolePermissions]);
    expect(await menuOf(roleId)).toEqual([allPages[2]]);
  });

  it('grants the same page twice without a second row', async () => {
    const roleId = await addRole();
    for (let i = 0; i < 2; i++) {
      expect(
        (await t.as(admin, { method: 'POST', url: `/api/permission/add/${roleId}/${page.users}` })).statusCode,
      ).toBe(200);
    }
    expect(await menuOf(roleId)).toEqual([allPages[3]]);
  });

  it('refuses the administrator role (it always has every page) with 400', async () => {
    const response = await t.as(admin, { method: 'POST', url: `/api/permission/add/-1/${page.users}` });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('The administrator always has every page');
  });

  it('answers 404 for an unknown role or page and 400 for bad ids, granting nothing', async () => {
    const roleId = await addRole();
    const unknownRole = await t.as(admin, { method: 'POST', url: `/api/permission/add/999999/${page.users}` });
    expect(unknownRole.statusCode).toBe(404);
    expect(unknownRole.json().message).toBe('Role not found');
    const unknownPage = await t.as(admin, { method: 'POST', url: `/api/permission/add/${roleId}/99` });
    expect(unknownPage.statusCode).toBe(404);
    expect(unknownPage.json().message).toBe('Page not found');
    const bad = await t.as(admin, { method: 'POST', url: `/api/permission/add/${roleId}/users` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual({ pageId: 'Id must be a number' });
    expect(await grantedIds(roleId)).toEqual([]);
  });

  it('refuses a missing token (401), a Web user without the page and a doctor (403), granting nothing', async () => {
    const request = {
      method: 'POST' as const,
      url: `/api/permission/add/${dashboardStaff.roleId}/${page.rolePermissions}`,
    };
    expect((await t.as(null, request)).statusCode).toBe(401);
    expect((await t.as(dashboardStaff.token, request)).statusCode).toBe(403);
    expect((await t.as(doctor, request)).statusCode).toBe(403);
    expect(await grantedIds(dashboardStaff.roleId)).toEqual([page.dashboard]);
  });
});

describe('DELETE /permission/delete/:roleId/:pageId', () => {
  it('revokes a page; the role permissions and the menu follow', async () => {
    const roleId = await addRole();
    await t.as(admin, { method: 'POST', url: `/api/permission/add/${roleId}/${page.dashboard}` });
    await t.as(admin, { method: 'POST', url: `/api/permission/add/${roleId}/${page.addCase}` });
    const response = await t.as(permissionsStaff, {
      method: 'DELETE',
      url: `/api/permission/delete/${roleId}/${page.dashboard}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Permission revoked successfully' });
    expect(await grantedIds(roleId)).toEqual([page.addCase]);
    expect(await menuOf(roleId)).toEqual([allPages[5]]);
  });

  it('answers 200 for a page the role does not have', async () => {
    const roleId = await addRole();
    expect(
      (await t.as(admin, { method: 'DELETE', url: `/api/permission/delete/${roleId}/${page.users}` })).statusCode,
    ).toBe(200);
    expect(await grantedIds(roleId)).toEqual([]);
  });

  it('refuses the administrator role with 400 and keeps its full menu', async () => {
    const response = await t.as(admin, { method: 'DELETE', url: `/api/permission/delete/-1/${page.users}` });
    expect(response.statusCode).toBe(400);
    expect(await menuOf(-1)).toEqual(allPages);
  });

  it('answers 404 for an unknown role or page', async () => {
    expect(
      (await t.as(admin, { method: 'DELETE', url: `/api/permission/delete/999999/${page.users}` })).statusCode,
    ).toBe(404);
    expect(
      (await t.as(admin, { method: 'DELETE', url: `/api/permission/delete/${dashboardStaff.roleId}/0` })).statusCode,
    ).toBe(404);
    expect(await grantedIds(dashboardStaff.roleId)).toEqual([page.dashboard]);
  });

  it('refuses a missing token (401), a Web user without the page and a doctor (403), revoking nothing', async () => {
    const request = {
      method: 'DELETE' as const,
      url: `/api/permission/delete/${dashboardStaff.roleId}/${page.dashboard}`,
    };
    expect((await t.as(null, request)).statusCode).toBe(401);
    expect((await t.as(dashboardStaff.token, request)).statusCode).toBe(403);
    expect((await t.as(doctor, request)).statusCode).toBe(403);
    expect(await grantedIds(dashboardStaff.roleId)).toEqual([page.dashboard]);
  });
});

describe('permissions are read on every request', () => {
  it("opens an area's API as soon as the page is granted and closes it on revoke, with the same token", async () => {
    const staff = await createStaff(t, []);
    const callUsers = () => t.as(staff.token, { method: 'GET', url: '/api/user/get_users_list' });
    const callRoles = () =>
      t.as(staff.token, { method: 'POST', url: '/api/role/add', payload: { roleName: uniqueName('ByStaff') } });
    expect((await callUsers()).statusCode).toBe(403);
    expect((await callRoles()).statusCode).toBe(403);

    await t.as(admin, { method: 'POST', url: `/api/permission/add/${staff.roleId}/${page.users}` });
    expect((await callUsers()).statusCode).toBe(200);
    expect((await callRoles()).statusCode).toBe(403);

    await t.as(admin, { method: 'POST', url: `/api/permission/add/${staff.roleId}/${page.roles}` });
    expect((await callRoles()).statusCode).toBe(200);

    await t.as(admin, { method: 'DELETE', url: `/api/permission/delete/${staff.roleId}/${page.users}` });
    expect((await callUsers()).statusCode).toBe(403);
    expect((await callRoles()).statusCode).toBe(200);
  });

  it('closes the Role Permissions API for a user whose page was revoked by someone else', async () => {
    const staff = await createStaff(t, [page.rolePermissions]);
    const url = `/api/permission/get_role_permissions/${staff.roleId}`;
    expect((await t.as(staff.token, { method: 'GET', url })).statusCode).toBe(200);
    await t.as(admin, { method: 'DELETE', url: `/api/permission/delete/${staff.roleId}/${page.rolePermissions}` });
    expect((await t.as(staff.token, { method: 'GET', url })).statusCode).toBe(403);
    const ownMenu = await t.as(staff.token, { method: 'GET', url: `/api/permission/get_menu/${staff.roleId}` });
    expect(ownMenu.statusCode).toBe(200);
    expect(ownMenu.json()).toEqual([]);
  });
});
