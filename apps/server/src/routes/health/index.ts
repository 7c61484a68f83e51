import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';

const status = z.object({ status: z.string(), message: z.string().optional() });

/** For load balancers: /health says the process answers, /ready that its database and storage do. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    { config: { access: 'public' }, schema: { tags: ['health'], security: [], response: { 200: status } } },
    () => ({
      status: 'ok',
    }),
  );

  app.get(
    '/ready',
    {
      config: { access: 'public' },
      schema: { tags: ['health'], security: [], response: { 200: status, 503: status } },
    },
    async (_request, reply) => {
      try {
        await app.db.execute(sql`select 1`);
        await app.storage.check();
        return { status: 'ready' };
      } catch (error) {
        app.log.warn({ err: error }, 'not ready');
        return reply.status(503).send({ status: 'unavailable', message: 'Database or storage is unreachable' });
      }
    },
  );
};
