import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';

export const healthStatus = z.object({ status: z.string(), message: z.string().optional() });

/** For load balancers: /health says the process answers, /ready that its database and storage do. */
export const healthEndpoints = {
  health: defineEndpoint({
    method: 'GET',
    path: '/api/health',
    operationId: 'health',
    summary: 'Liveness: the process answers',
    tag: 'health',
    access: 'public',
    answer: healthStatus,
    isStandalone: true,
  }),
  ready: defineEndpoint({
    method: 'GET',
    path: '/api/ready',
    operationId: 'ready',
    summary: 'Readiness: the database and storage answer',
    tag: 'health',
    access: 'public',
    answer: healthStatus,
    otherAnswers: { 503: { description: 'The database or storage is unreachable', schema: healthStatus } },
  }),
};
