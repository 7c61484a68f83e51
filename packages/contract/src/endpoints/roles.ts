import { idParams, messageResponse } from '../common.ts';
import { roleSecondFactorRequest } from '../second-factor.ts';
import { defineEndpoint } from '../endpoint.ts';
import { role, roleRequest } from '../roles.ts';

const tag = 'roles';
const manage = { pages: ['/roles'] } as const;

export const roleEndpoints = {
  // The Users and Doctors screens pick a role from this list too.
  roleList: defineEndpoint({
    method: 'GET',
    path: '/api/role/get_roles_list',
    operationId: 'roleList',
    summary: 'List the roles',
    tag,
    access: { pages: ['/roles', '/users', '/doctors'] },
    answer: role.array(),
  }),
  roleCreate: defineEndpoint({
    method: 'POST',
    path: '/api/role/add',
    operationId: 'roleCreate',
    summary: 'Add a role',
    tag,
    access: manage,
    body: roleRequest,
    answer: messageResponse.extend({ RoleId: role.shape.RoleId }),
    errors: [409],
  }),
  roleUpdate: defineEndpoint({
    method: 'PUT',
    path: '/api/role/edit/:id',
    operationId: 'roleUpdate',
    summary: 'Change a role',
    tag,
    access: manage,
    params: idParams,
    body: roleRequest,
    answer: messageResponse,
    errors: [404, 409],
  }),
  roleDelete: defineEndpoint({
    method: 'DELETE',
    path: '/api/role/delete/:id',
    operationId: 'roleDelete',
    summary: 'Delete a role no user has',
    tag,
    access: manage,
    params: idParams,
    answer: messageResponse,
    errors: [404, 409],
  }),
  roleSecondFactor: defineEndpoint({
    method: 'PUT',
    path: '/api/role/second-factor/:id',
    operationId: 'roleSecondFactor',
    summary: "Require a second factor of a role's users, or no longer (the administrator alone)",
    tag,
    access: 'administrator',
    params: idParams,
    body: roleSecondFactorRequest,
    answer: messageResponse,
    errors: [404],
  }),
};
