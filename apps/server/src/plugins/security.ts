import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { assertNoNul } from '../lib/nul-text.ts';

/** Swagger UI's page runs an inline bootstrap script; only /api/docs gets that allowance. */
const docsCsp =
  "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; frame-ancestors 'none'";

/** The portal uses none of these browser features; a script injected into it gets none of them either. */
const permissionsPolicy = [
  'accelerometer',
  'autoplay',
  'camera',
  'display-capture',
  'encrypted-media',
  'geolocation',
  'gyroscope',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

/** Two years with subdomains, as HSTS preload lists ask; sent only over TLS (RFC 6797 § 7.2). */
const hstsHeader = 'max-age=63072000; includeSubDomains';

export const securityPlugin = fp(async (app: FastifyInstance) => {
  // Helmet's headers on every answer. Its middleware is built once here: @fastify/helmet built
  // it again on every request (parsing the policy each time, 4% of a case list's CPU).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // WebAssembly compiled by the portal's own scripts (the mesh viewer's meshopt decoder);
        // it lets no script in and no JavaScript be evaluated (docs/decisions/meshes.md § Meshes for viewing).
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        // Mantine sets style attributes at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        workerSrc: ["'self'", 'blob:'],
        frameSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
        upgradeInsecureRequests: app.config.publicUrl.startsWith('https:') ? [] : null,
      },
    },
    // Set below, per request: helmet would decide once, from PUBLIC_URL alone.
    strictTransportSecurity: false,
  });
  const isPublicUrlHttps = app.config.publicUrl.startsWith('https:');
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('permissions-policy', permissionsPolicy);
    // Served over TLS: the portal's address is https, or this request came over TLS (on its own
    // socket, or as X-Forwarded-Proto from a proxy that TRUST_PROXY names).
    if (isPublicUrlHttps || request.protocol === 'https') reply.header('strict-transport-security', hstsHeader);
    securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined));
  });

  // No text with a NUL reaches a route (PostgreSQL refuses it): 400 before the schemas run.
  app.addHook('preValidation', async (request) => {
    assertNoNul(request.params, request.query, request.body);
  });

  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/docs')) {
      reply.header('content-security-policy', docsCsp);
    } else if (request.url.startsWith('/api/')) {
      // Answers carry patient data (files included): kept by no cache, a shared lab computer's
      // browser cache neither, so nothing of a case is left on it after sign-out.
      reply.header('cache-control', 'private, no-store');
    }
  });
});
