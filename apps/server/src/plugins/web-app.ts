import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { routeNotFound } from '../lib/errors.ts';

/** Vite's content-hashed build output: its names change when its bytes do, so browsers keep it for a year. */
const hashedAssetsDir = `${path.sep}assets${path.sep}`;
const immutableCacheControl = 'public, max-age=31536000, immutable';
/** Icons, the manifest and robots.txt keep their names across builds: a day, then revalidated. */
const unhashedCacheControl = 'public, max-age=86400';

/**
 * The built web app from apps/web/dist, with every non-API GET falling back to index.html
 * so client-side routes (/dashboard, /reset-password?token=...) load on refresh. The build
 * writes each file's brotli and gzip twins (vite.config.ts); they are sent by the request's
 * Accept-Encoding with `Vary: Accept-Encoding`, so nothing is compressed per request.
 */
export const webAppPlugin = fp(async (app: FastifyInstance) => {
  const root = app.config.webDist;
  const hasBuild = existsSync(path.join(root, 'index.html'));
  if (hasBuild) {
    const served = { index: false, preCompressed: true, cacheControl: false } as const;
    // The top-level files (index.html, icons, manifest) get a route each; the hashed assets,
    // nearly all of the build, one wildcard route: a route per asset file (with its brotli and
    // gzip twins, about 230) held 10-14 MB of an idle process
    // (docs/decisions/build-and-runtime.md § Start command and compiled output). A missing asset is a 404, not the page.
    await app.register(fastifyStatic, {
      ...served,
      root,
      wildcard: false,
      globIgnore: ['assets/**'],
      setHeaders: (reply, filePath) => {
        const relative = filePath.slice(root.length);
        reply.header('cache-control', relative.startsWith(`${path.sep}index.html`) ? 'no-cache' : unhashedCacheControl);
      },
    });
    await app.register(fastifyStatic, {
      ...served,
      root: path.join(root, hashedAssetsDir),
      prefix: hashedAssetsDir.split(path.sep).join('/'),
      wildcard: true,
      decorateReply: false,
      setHeaders: (reply) => {
        reply.header('cache-control', immutableCacheControl);
      },
    });
  }
  app.get('/*', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    if (request.url.startsWith('/api/')) {
      return reply.status(404).send(routeNotFound(request.method, request.url));
    }
    // A patient's link (docs/decisions/plans.md § Patient links): kept out of search engines.
    if (request.url.startsWith('/p/')) reply.header('x-robots-tag', 'noindex, nofollow');
    if (!hasBuild) {
      return reply.type('text/plain').send('The web app is not built yet: run `npm run build`.');
    }
    // The page names this build's hashed files, so it is revalidated on every visit.
    return reply.sendFile('index.html', root!);
  });
});
