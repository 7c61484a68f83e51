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
  await app.register(swagger, { mode: 'static', specification: { document: buildOpenApiDocument() as never } });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
});
