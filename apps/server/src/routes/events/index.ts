import { endpoints } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../define-route.ts';

export async function eventRoutes(app: FastifyInstance) {
  route(app, endpoints.eventStream, {}, (request, reply) => {
    // HEAD (derived from GET by Fastify) says whether a stream would open, without holding one.
    if (request.method === 'HEAD') return reply.type('text/event-stream; charset=utf-8').send();
    app.events.open(request, reply, request.user);
    return reply;
  });
}
