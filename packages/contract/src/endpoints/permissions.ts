import { z } from 'zod';
import { idParam, messageResponse } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import { menuItem, rolePermission } from '../roles.ts';

const tag = 'permissions';
const manage = { pages: ['/rolepermissions'] } as const;
const roleParams = z.object({ roleId: idParam });
const rolePageParams = z.object({ roleId: idParam, pageId: idParam });

export const permissionEndpoints = {
  // Everyone may read the menu of their own role; other roles' menus are for the Role Permissions page.
  permissionMenu: defineEndpoint({
    method: 'GET',
    path: '/api/permission/get_menu/:roleId',
    record: 'roleMenu',
    operationId: 'permissionMenu',
    summary: "A role's menu: the caller's own, or any role's with the Role Permissions page",
    tag,
    access: 'signedIn',
    params: roleParams,
    answer: menuItem.array(),
    errors: [403, 404],
  }),
  permissionList: defineEndpoint({
    method: 'GET',
    path: '/api/permission/get_role_permissions/:roleId',
    operationId: 'permissionList',
    summary: 'Every page, and whether a role has it',
    tag,
    access: manage,
    params: roleParams,
    answer: rolePermission.array(),
    errors: [404],
  }),
  permissionGrant: defineEndpoint({
    method: 'POST',
    path: '/api/permission/add/:roleId/:pageId',
    operationId: 'permissionGrant',
    summary: 'Give a role a page',
    tag,
    access: manage,
    params: rolePageParams,
    answer: messageResponse,
    errors: [404],
  }),
  permissionRevoke: defineEndpoint({
    method: 'DELETE',
    path: '/api/permission/delete/:roleId/:pageId',
    operationId: 'permissionRevoke',
    summary: 'Take a page from a role',
    tag,
    access: manage,
    params: rolePageParams,
    answer: messageResponse,
    errors: [404],
  }),
};
