import { endpoints } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { paramTarget } from '../../plugins/audit.ts';
import { createRole, deleteRole, listRoles, setRoleSecondFactor, updateRole } from '../../services/roles.ts';
import { route } from '../define-route.ts';

const byId = paramTarget({ role: 'id' });

export async function roleRoutes(app: FastifyInstance) {
  route(app, endpoints.roleList, {}, () => listRoles(app.db));

  route(app, endpoints.roleCreate, { audit: { action: 'role.create' } }, async (request) => {
    const created = await createRole(app.db, request.body);
    request.auditDetail = { target: `role:${created.RoleId}` };
    return { message: 'Role added successfully', RoleId: created.RoleId };
  });

  route(app, endpoints.roleUpdate, { audit: { action: 'role.update', target: byId } }, async (request) => {
    await updateRole(app.db, request.params.id, request.body);
    return { message: 'Role updated successfully' };
  });

  route(app, endpoints.roleDelete, { audit: { action: 'role.delete', target: byId } }, async (request) => {
    await deleteRole(app.db, request.params.id);
    return { message: 'Role deleted successfully' };
  });

  route(app, endpoints.roleSecondFactor, { audit: { action: 'role.second_factor', target: byId } }, async (request) => {
    await setRoleSecondFactor(app.db, request.params.id, request.body.required);
    return {
      message: request.body.required
        ? 'A second factor is now required for this role'
        : 'Second factor no longer required',
    };
  });
}
