import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The built web app from apps/web/dist, with every non-API GET falling back to index.html
 * so client-side routes (/dashboard, /reset-password?token=...) load on refresh.
 */
export const webAppPlugin = fp(async (app: FastifyInstance) => {
  const root = app.config.webDist;
  const hasBuild = root !== undefined && existsSync(path.join(root, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, { root, wildcard: false, index: false, maxAge: '1y', immutable: true });
  }
  app.get('/*', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    if (request.url.startsWith('/api/')) {
      return reply.status(404).send({ message: `Route ${request.method} ${request.url.split('?')[0]} not found` });
    }
    if (!hasBuild) {
      return reply.type('text/plain').send('The web app is not built yet: run `npm run build`.');
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html', root!, { maxAge: 0, immutable: false });
  });
});
