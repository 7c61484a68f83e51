import { auditEntry, auditListQuery } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { findAuditEntries } from '../../services/audit.ts';
import { signedInErrors } from '../responses.ts';

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  // Paged like the case lists: `?page=&pageSize=`, the count of all matches in X-Total-Count.
  app.get(
    '/',
    {
      config: { access: 'administrator' },
      schema: {
        tags: ['audit'],
        querystring: auditListQuery,
        response: { 200: auditEntry.array(), ...signedInErrors },
      },
    },
    async (request, reply) => {
      const { rows, total } = await findAuditEntries(app.db, request.query);
      reply.header('x-total-count', total);
      return rows;
    },
  );
};
