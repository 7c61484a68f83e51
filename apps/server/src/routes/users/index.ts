import { idParams, messageResponse, user, userAddRequest, userEditRequest } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createWebUser, deleteWebUser, listWebUsers, updateWebUser } from '../../services/users.ts';
import { paramTarget } from '../../plugins/audit.ts';
import { readProfileForm } from '../profile-form.ts';
import { errorResponses, signedInErrors } from '../responses.ts';

const manage = { access: { pages: ['/users' as const] } };
const byId = paramTarget({ user: 'id' });
const multipartDoc = { consumes: ['multipart/form-data'], tags: ['users'] };

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/get_users_list',
    { config: manage, schema: { tags: ['users'], response: { 200: user.array(), ...signedInErrors } } },
    () => listWebUsers(app.db),
  );

  app.post(
    '/add',
    {
      config: { ...manage, audit: { action: 'user.create' } },
      schema: {
        ...multipartDoc,
        response: {
          200: messageResponse.extend({ UserId: user.shape.UserId }),
          ...signedInErrors,
          ...errorResponses(409, 413, 415),
        },
      },
    },
    async (request) => {
      const form = await readProfileForm(request, userAddRequest);
      const userId = await createWebUser(app.db, app.storage, request.user!, form.input, form.picture);
      request.auditDetail = { target: `user:${userId}` };
      return { message: 'User added successfully', UserId: userId };
    },
  );

  app.put(
    '/edit/:id',
    {
      config: { ...manage, audit: { action: 'user.update', target: byId } },
      schema: {
        ...multipartDoc,
        params: idParams,
        response: { 200: messageResponse, ...signedInErrors, ...errorResponses(404, 409, 413, 415) },
      },
    },
    async (request) => {
      const form = await readProfileForm(request, userEditRequest);
      await updateWebUser(app.db, app.storage, request.user!, request.params.id, form.input, {
        picture: form.picture,
        remove: form.removePicture,
      });
      return { message: 'User updated successfully' };
    },
  );

  app.delete(
    '/delete/:id',
    {
      config: { ...manage, audit: { action: 'user.delete', target: byId } },
      schema: {
        tags: ['users'],
        params: idParams,
        response: { 200: messageResponse, ...signedInErrors, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      await deleteWebUser(app.db, request.user!, request.params.id);
      return { message: 'User deleted successfully' };
    },
  );
};
