import { endpoints } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { findAuditEntries } from '../../services/audit.ts';
import { route } from '../define-route.ts';

export async function auditRoutes(app: FastifyInstance) {
  route(app, endpoints.auditList, {}, async (request, reply) => {
    const { rows, total } = await findAuditEntries(app.db, request.query);
    reply.header('x-total-count', total);
    return rows;
  });
}
