import { endpoints } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { paramTarget } from '../../plugins/audit.ts';
import { getMenu, getRolePermissions, grantPage, revokePage } from '../../services/permissions.ts';
import { route } from '../define-route.ts';

const rolePage = paramTarget({ role: 'roleId', page: 'pageId' });

export async function permissionRoutes(app: FastifyInstance) {
  route(app, endpoints.permissionMenu, {}, (request) => getMenu(app.db, request.record.roleId));

  route(app, endpoints.permissionList, {}, (request) => getRolePermissions(app.db, request.params.roleId));

  route(
    app,
    endpoints.permissionGrant,
    { audit: { action: 'permission.grant', target: rolePage } },
    async (request) => {
      await grantPage(app.db, request.user, request.params.roleId, request.params.pageId);
      return { message: 'Permission granted successfully' };
    },
  );

  route(
    app,
    endpoints.permissionRevoke,
    { audit: { action: 'permission.revoke', target: rolePage } },
    async (request) => {
      await revokePage(app.db, request.user, request.params.roleId, request.params.pageId);
      return { message: 'Permission revoked successfully' };
    },
  );
}
