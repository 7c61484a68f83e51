import { idParams, messageResponse, role, roleRequest } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createRole, deleteRole, listRoles, updateRole } from '../../services/roles.ts';
import { paramTarget } from '../../plugins/audit.ts';
import { errorResponses, signedInErrors } from '../responses.ts';

export const roleRoutes: FastifyPluginAsyncZod = async (app) => {
  // The Users and Doctors screens pick a role from this list too.
  app.get(
    '/get_roles_list',
    {
      config: { access: { pages: ['/roles', '/users', '/doctors'] } },
      schema: { tags: ['roles'], response: { 200: role.array(), ...signedInErrors } },
    },
    () => listRoles(app.db),
  );

  const manage = { access: { pages: ['/roles' as const] } };
  const byId = paramTarget({ role: 'id' });

  app.post(
    '/add',
    {
      config: { ...manage, audit: { action: 'role.create' } },
      schema: {
        tags: ['roles'],
        body: roleRequest,
        response: {
          200: messageResponse.extend({ RoleId: role.shape.RoleId }),
          ...signedInErrors,
          ...errorResponses(409),
        },
      },
    },
    async (request) => {
      const created = await createRole(app.db, request.body);
      request.auditDetail = { target: `role:${created.RoleId}` };
      return { message: 'Role added successfully', RoleId: created.RoleId };
    },
  );

  app.put(
    '/edit/:id',
    {
      config: { ...manage, audit: { action: 'role.update', target: byId } },
      schema: {
        tags: ['roles'],
        params: idParams,
        body: roleRequest,
        response: { 200: messageResponse, ...signedInErrors, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      await updateRole(app.db, request.params.id, request.body);
      return { message: 'Role updated successfully' };
    },
  );

  app.delete(
    '/delete/:id',
    {
      config: { ...manage, audit: { action: 'role.delete', target: byId } },
      schema: {
        tags: ['roles'],
        params: idParams,
        response: { 200: messageResponse, ...signedInErrors, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      await deleteRole(app.db, request.params.id);
      return { message: 'Role deleted successfully' };
    },
  );
};
