import { idParam, menuItem, messageResponse, rolePermission } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { canUsePage } from '../../auth/access.ts';
import { forbidden } from '../../lib/errors.ts';
import { getMenu, getRolePermissions, grantPage, revokePage } from '../../services/permissions.ts';
import { paramTarget } from '../../plugins/audit.ts';
import { errorResponses, signedInErrors } from '../responses.ts';

const roleParams = z.object({ roleId: idParam });
const rolePageParams = z.object({ roleId: idParam, pageId: idParam });
const rolePage = paramTarget({ role: 'roleId', page: 'pageId' });

export const permissionRoutes: FastifyPluginAsyncZod = async (app) => {
  // Everyone may read the menu of their own role; other roles' menus are for the Role Permissions page.
  app.get(
    '/get_menu/:roleId',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['permissions'],
        params: roleParams,
        response: { 200: menuItem.array(), ...signedInErrors, ...errorResponses(404) },
      },
    },
    async (request) => {
      const user = request.user!;
      const isOwnRole = user.userType === 'Web' && user.roleId === request.params.roleId;
      if (!isOwnRole && !canUsePage(user, '/rolepermissions')) throw forbidden();
      return getMenu(app.db, request.params.roleId);
    },
  );

  const manage = { access: { pages: ['/rolepermissions' as const] } };

  app.get(
    '/get_role_permissions/:roleId',
    {
      config: manage,
      schema: {
        tags: ['permissions'],
        params: roleParams,
        response: { 200: rolePermission.array(), ...signedInErrors, ...errorResponses(404) },
      },
    },
    (request) => getRolePermissions(app.db, request.params.roleId),
  );

  app.post(
    '/add/:roleId/:pageId',
    {
      config: { ...manage, audit: { action: 'permission.grant', target: rolePage } },
      schema: {
        tags: ['permissions'],
        params: rolePageParams,
        response: { 200: messageResponse, ...signedInErrors, ...errorResponses(404) },
      },
    },
    async (request) => {
      await grantPage(app.db, request.params.roleId, request.params.pageId);
      return { message: 'Permission granted successfully' };
    },
  );

  app.delete(
    '/delete/:roleId/:pageId',
    {
      config: { ...manage, audit: { action: 'permission.revoke', target: rolePage } },
      schema: {
        tags: ['permissions'],
        params: rolePageParams,
        response: { 200: messageResponse, ...signedInErrors, ...errorResponses(404) },
      },
    },
    async (request) => {
      await revokePage(app.db, request.params.roleId, request.params.pageId);
      return { message: 'Permission revoked successfully' };
    },
  );
};
