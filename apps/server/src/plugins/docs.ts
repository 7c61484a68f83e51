import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { buildOpenApiDocument } from './openapi-document.ts';

/**
 * The OpenAPI document, built from the contract's endpoint table (the same rows the routes
 * are registered from), served at /api/docs/json and browsable at /api/docs.
 */
export const docsPlugin = fp(async (app: FastifyInstance) => {
  // Served as built; the plugin's types describe OpenAPI 2 and 3.0 documents, this one is 3.1.
  const document = buildOpenApiDocument() as never;
  await app.register(swagger, { mode: 'static', specification: { document } });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
});
