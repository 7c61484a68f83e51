import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isDoctor } from '../../auth/access.ts';
import { notFound } from '../../lib/errors.ts';
import { pictureFileName, pictureStorageKey } from '../../services/profile-pictures.ts';

const pictureParams = z.object({
  userId: z.coerce.number().int().positive(),
  fileName: z.string().regex(pictureFileName, 'Not a profile picture'),
});

/** Profile pictures and avatars, to signed-in users; a doctor sees only their own. HEAD answers too. */
export const uploadRoutes: FastifyPluginAsyncZod = async (app) => {
  // HEAD is declared, not derived from GET: Fastify's derived HEAD would answer content-length 0.
  app.route({
    method: ['GET', 'HEAD'],
    url: '/users/:userId/:fileName',
    config: { access: 'signedIn' },
    schema: { tags: ['uploads'], params: pictureParams },
    handler: async (request, reply) => {
      const { userId, fileName } = request.params;
      if (isDoctor(request.user!) && request.user!.userId !== userId) throw notFound('Picture');
      const key = pictureStorageKey(userId, fileName);
      const stored = await app.storage.stat(key);
      if (!stored) throw notFound('Picture');
      reply
        .type(fileName.endsWith('.png') ? 'image/png' : 'image/jpeg')
        .header('content-length', stored.size)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=3600');
      return reply.send(request.method === 'HEAD' ? undefined : await app.storage.read(key));
    },
  });
};
