import { endpoints, userMessages } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { paramTarget } from '../../plugins/audit.ts';
import { createWebUser, deleteWebUser, listWebUsers, updateWebUser } from '../../services/users.ts';
import { readProfileForm } from '../profile-form.ts';
import { route } from '../define-route.ts';
import { withPictureUrl } from '../urls.ts';

const byId = paramTarget({ user: 'id' });

export async function userRoutes(app: FastifyInstance) {
  route(app, endpoints.userList, {}, async (request, reply) => {
    const { rows, total } = await listWebUsers(app.db, request.query);
    reply.header('x-total-count', total);
    return rows.map(withPictureUrl);
  });

  route(app, endpoints.userCreate, { audit: { action: 'user.create' } }, async (request) => {
    const form = await readProfileForm(request, endpoints.userCreate.body);
    const { userId, isInvited } = await createWebUser(app, request.user, form.input, form.picture);
    request.auditDetail = { target: `user:${userId}` };
    return { message: isInvited ? userMessages.invited : userMessages.added, UserId: userId };
  });

  route(app, endpoints.userUpdate, { audit: { action: 'user.update', target: byId } }, async (request) => {
    const form = await readProfileForm(request, endpoints.userUpdate.body);
    await updateWebUser(app, request.user, request.params.id, form.input, {
      picture: form.picture,
      remove: form.removePicture,
    });
    return { message: 'User updated successfully' };
  });

  route(app, endpoints.userDelete, { audit: { action: 'user.delete', target: byId } }, async (request) => {
    await deleteWebUser(app.db, request.user, request.params.id);
    return { message: 'User deleted successfully' };
  });
}
