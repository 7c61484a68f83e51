import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** Vite's content-hashed build output: its names change when its bytes do, so browsers keep it for a year. */
const hashedAssetsDir = `${path.sep}assets${path.sep}`;
export const immutableCacheControl = 'public, max-age=31536000, immutable';
/** Icons, the manifest and robots.txt keep their names across builds: a day, then revalidated. */
export const unhashedCacheControl = 'public, max-age=86400';

/**
 * The built web app from apps/web/dist, with every non-API GET falling back to index.html
 * so client-side routes (/dashboard, /reset-password?token=...) load on refresh. The build
 * writes each file's brotli and gzip twins (vite.config.ts); they are sent by the request's
 * Accept-Encoding with `Vary: Accept-Encoding`, so nothing is compressed per request.
 */
export const webAppPlugin = fp(async (app: FastifyInstance) => {
  const root = app.config.webDist;
  const hasBuild = root !== undefined && existsSync(path.join(root, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        const relative = filePath.slice(root.length);
        reply.header(
          'cache-control',
          relative.startsWith(hashedAssetsDir)
            ? immutableCacheControl
            : relative.startsWith(`${path.sep}index.html`)
              ? 'no-cache'
              : unhashedCacheControl,
        );
      },
    });
  }
  app.get('/*', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    if (request.url.startsWith('/api/')) {
      return reply.status(404).send({ message: `Route ${request.method} ${request.url.split('?')[0]} not found` });
    }
    if (!hasBuild) {
      return reply.type('text/plain').send('The web app is not built yet: run `npm run build`.');
    }
    // The page names this build's hashed files, so it is revalidated on every visit.
    return reply.sendFile('index.html', root!);
  });
});
