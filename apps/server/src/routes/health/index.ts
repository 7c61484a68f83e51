import { endpoints } from '@portal/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { route } from '../define-route.ts';

export async function healthRoutes(app: FastifyInstance) {
  route(app, endpoints.health, {}, () => ({ status: 'ok' }));

  route(app, endpoints.ready, {}, async (_request, reply) => {
    try {
      await app.db.execute(sql`select 1`);
      await app.storage.check();
      return { status: 'ready' };
    } catch (error) {
      app.log.warn({ err: error }, 'not ready');
      return reply.status(503).send({ status: 'unavailable', message: 'Database or storage is unreachable' });
    }
  });
}
