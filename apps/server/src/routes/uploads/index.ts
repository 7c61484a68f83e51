import { endpoints } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/errors.ts';
import { pictureStorageKey } from '../../services/profile-pictures.ts';
import { route } from '../define-route.ts';
import { tusRoutesPlugin } from './tus.ts';

/** Profile pictures and avatars, to signed-in users (a doctor sees only their own; HEAD answers too), and tus uploads. */
export async function uploadRoutes(app: FastifyInstance) {
  route(app, endpoints.profilePictureGet, {}, async (request, reply) => {
    const { userId } = request.record;
    const { fileName } = request.params;
    const key = pictureStorageKey(userId, fileName);
    const stored = await app.storage.stat(key);
    if (!stored) throw notFound('Picture');
    reply
      .type(fileName.endsWith('.png') ? 'image/png' : 'image/jpeg')
      .header('content-length', stored.size)
      .header('x-content-type-options', 'nosniff');
    return reply.send(request.method === 'HEAD' ? undefined : await app.storage.read(key));
  });

  await app.register(tusRoutesPlugin);
}
