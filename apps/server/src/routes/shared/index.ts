import { endpoints, planMessages, shareToken } from '@portal/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { operationOf } from '../../metrics/portal-metrics.ts';
import { findMeshView } from '../../services/mesh-views.ts';
import { findSharedPlan, readSharedPlan } from '../../services/plans/plan-shares.ts';
import { planViewSource } from '../../services/plans/plan-views.ts';
import { route } from '../define-route.ts';
import { meshViewState, sendMeshView } from '../send-mesh-view.ts';

/** Refused link tokens an address may try in the window before it is answered 429. */
const refusedTokensPerAddress = 30;
const refusalWindowMs = 10 * 60 * 1000;

/**
 * The patient's link (docs/decisions/plans.md § Patient links): public, so guessing is counted per
 * address, every answer tells search engines to keep out, and a token that is unknown,
 * expired or revoked is one 404.
 */
export async function sharedPlanRoutes(app: FastifyInstance) {
  const key = (request: FastifyRequest) => `share-address:${request.ip}`;

  /** The open link of the request's token: counted as a guess first, taken back when it opens. */
  async function openShare(request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) {
    reply.header('x-robots-tag', 'noindex, nofollow');
    const { count, ttlSeconds } = await app.failureCounter.hit(key(request), refusalWindowMs);
    if (count > refusedTokensPerAddress) {
      app.metrics.throttled.inc({ operation: operationOf(request), limit: 'address' });
      reply.header('retry-after', ttlSeconds);
      throw new AppError(429, 'Too many links tried from this address; try again later.');
    }
    if (!shareToken.safeParse(request.params.token).success) throw new AppError(404, planMessages.shareNotFound);
    const shared = await findSharedPlan(app.db, request.params.token);
    await app.failureCounter.forgive(key(request));
    return shared;
  }

  route(app, endpoints.sharedPlanGet, { audit: { action: 'plan.share_view' } }, async (request, reply) => {
    const shared = await openShare(request, reply);
    request.auditDetail = { target: `case:${shared.caseId}/plan:${shared.planId}/share:${shared.shareId}` };
    const answer = await readSharedPlan(app.db, shared);
    return {
      ...answer,
      views: {
        upper: answer.views.upper && meshViewState(answer.views.upper),
        lower: answer.views.lower && meshViewState(answer.views.lower),
      },
    };
  });

  route(app, endpoints.sharedPlanMesh, {}, async (request, reply) => {
    const shared = await openShare(request, reply);
    return sendMeshView(
      app,
      request,
      reply,
      await findMeshView(app.db, planViewSource(shared.planId, request.params.arch)),
    );
  });
}
