import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { assertNoNul } from '../lib/nul-text.ts';

/** Swagger UI's page runs an inline bootstrap script; only /api/docs gets that allowance. */
const docsCsp =
  "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; frame-ancestors 'none'";

export const securityPlugin = fp(async (app: FastifyInstance) => {
  // Helmet's headers on every answer. Its middleware is built once here: @fastify/helmet built
  // it again on every request (parsing the policy each time, 4% of a case list's CPU).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
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
    strictTransportSecurity: app.config.publicUrl.startsWith('https:'),
  });
  app.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined));
  });

  // No text with a NUL reaches a route (PostgreSQL refuses it): 400 before the schemas run.
  app.addHook('preValidation', async (request) => {
    assertNoNul(request.params, request.query, request.body);
  });

  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/docs')) {
      reply.header('content-security-policy', docsCsp);
    } else if (request.url.startsWith('/api/') && !isImmutableFile(reply.getHeader('cache-control'))) {
      // Answers carry patient data: never kept by a browser or proxy cache. The exception
      // is a plan's stage model, whose bytes never change: the browser's own (private) cache.
      reply.header('cache-control', 'no-store');
    }
  });
});

/** A route's `private, ..., immutable` answer (routes/plans: stage models) keeps its own caching. */
const isImmutableFile = (value: unknown) =>
  typeof value === 'string' && value.startsWith('private,') && value.includes('immutable');
