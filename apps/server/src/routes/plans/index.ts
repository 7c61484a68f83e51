import { endpoints } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import path from 'node:path';
import { paramTarget } from '../../plugins/audit.ts';
import type { VisibleCase } from '../../services/cases/case-access.ts';
import { findMeshView } from '../../services/mesh-views.ts';
import {
  addPlanComment,
  deletePlanComment,
  readPlanComments,
  replyToPlanComment,
  resolvePlanComment,
} from '../../services/plans/plan-comments.ts';
import { planStepLimits } from '../../services/lab-settings.ts';
import { readPlanMovements } from '../../services/plans/plan-movements.ts';
import { createPlanShare, listPlanShares, revokePlanShare } from '../../services/plans/plan-shares.ts';
import { findPlanViews, planViewSource } from '../../services/plans/plan-views.ts';
import {
  createPlanVersion,
  decidePlan,
  findPlanState,
  listPlans,
  type PlanChange,
} from '../../services/plans/plans.ts';
import { planUploadLimits, receivePlanUpload } from '../../services/plans/receive-plan-upload.ts';
import { deleteKeys } from '../../storage/delete-keys.ts';
import { sendCaseFile } from '../cases/send-case-file.ts';
import { route, type RouteOptions } from '../define-route.ts';
import { multipartParts } from '../multipart-parts.ts';
import { answerOriginalView, meshViewState, sendMeshView, sendOriginalView } from '../send-mesh-view.ts';
import { planFileUrl } from '../urls.ts';

const caseTarget = paramTarget({ case: 'caseId' });
const planTarget = paramTarget({ case: 'caseId', plan: 'planId' });

/** Treatment plans (docs/decisions/plans.md § Treatment plans): versions, the doctor's decisions, stage models. */
export async function planRoutes(app: FastifyInstance) {
  /** After the commit: a stream never hears of a change that was rolled back. */
  const publish = ({ doctorUserId, ...data }: PlanChange) =>
    app.events.publish({ type: 'case.plan', data }, { doctorUserId });
  /** The lab's per-stage limits: the one place the plan routes read them (the movements, the findings, an approval). */
  const stepLimits = () => planStepLimits(app.db);

  // Plans are large: their upload keeps only the stall rule (plugins/body-stall.ts).
  const uploadOptions: RouteOptions = { audit: { action: 'plan.upload', target: caseTarget }, isStreamedUpload: true };
  route(app, endpoints.planUpload, uploadOptions, async (request) => {
    // The case was resolved (404) before a byte of the files is read.
    const { caseId } = request.record;
    const { maxUploadBytes, dataDir } = app.config;
    const parts = multipartParts(request, planUploadLimits(maxUploadBytes));
    const upload = await receivePlanUpload(parts, app.storage, { maxUploadBytes, tmpDir: path.join(dataDir, 'tmp') });
    let created: PlanChange;
    try {
      created = await createPlanVersion(
        { db: app.db, outbox: app.outbox, jobs: app.jobs, publicUrl: app.config.publicUrl },
        request.user,
        caseId,
        upload,
      );
    } catch (error) {
      await deleteKeys(
        app.storage,
        upload.stages.map((file) => file.storageKey),
      );
      throw error;
    }
    request.auditDetail = { target: `case:${caseId}/plan:${created.planId}` };
    await publish(created);
    return { message: `Plan version ${created.version} uploaded`, planId: created.planId, version: created.version };
  });

  route(app, endpoints.planList, {}, async (request) =>
    (await listPlans(app.db, request.record, await stepLimits())).map((plan) => ({
      ...plan,
      stages: plan.stages.map((file) => ({ ...file, url: planFileUrl(file.stageFileId, file.fileName) })),
    })),
  );

  route(app, endpoints.planApprove, { audit: { action: 'plan.approve', target: planTarget } }, async (request) => {
    const decided = await decidePlan(app.db, request.user, request.record, {
      decision: 'approved',
      reviewedIn3d: request.body.reviewedIn3d,
      findingsAcknowledged: request.body.findingsAcknowledged === true,
      limits: await stepLimits(),
    });
    await publish(decided);
    return { message: `Plan version ${decided.version} approved` };
  });

  route(
    app,
    endpoints.planRequestChanges,
    { audit: { action: 'plan.request_changes', target: planTarget } },
    async (request) => {
      const decided = await decidePlan(app.db, request.user, request.record, {
        decision: 'changes_requested',
        comment: request.body.comment,
      });
      await publish(decided);
      return { message: `Changes requested on plan version ${decided.version}` };
    },
  );

  route(
    app,
    endpoints.planFileGet,
    { audit: { action: 'case.download', target: paramTarget({ plan_file: 'stageFileId' }) } },
    async (request, reply) => {
      const file = request.record;
      request.auditDetail = { target: `case:${file.caseId}/plan_file:${request.params.stageFileId}` };
      return sendCaseFile(request, reply, file);
    },
  );

  route(app, endpoints.planView, {}, async (request) => {
    const views = await findPlanViews(app.db, request.record.planId);
    return { upper: views.upper && meshViewState(views.upper), lower: views.lower && meshViewState(views.lower) };
  });

  route(app, endpoints.planViewMesh, {}, async (request, reply) =>
    sendMeshView(
      app,
      request,
      reply,
      await findMeshView(app.db, planViewSource(request.record.planId, request.params.arch)),
    ),
  );

  // Pinned comments change no plan state: their event tells both sides' pages to read them again.
  const publishComments = async (record: VisibleCase & { planId: number }) => {
    const { version, state } = await findPlanState(app.db, record.planId);
    await publish({
      caseId: record.caseId,
      planId: record.planId,
      version,
      state,
      doctorUserId: record.doctorUserId,
      at: new Date().toISOString(),
    });
  };
  const commentTarget = paramTarget({ case: 'caseId', plan: 'planId', comment: 'commentId' });

  route(app, endpoints.planCommentAdd, { audit: { action: 'plan.comment', target: planTarget } }, async (request) => {
    const comment = await addPlanComment(app.db, request.user, request.record, request.body);
    request.auditDetail = {
      target: `case:${request.record.caseId}/plan:${request.record.planId}/comment:${comment.commentId}`,
    };
    await publishComments(request.record);
    return comment;
  });

  route(app, endpoints.planCommentList, {}, (request) => readPlanComments(app.db, request.user, request.record));

  route(
    app,
    endpoints.planCommentDelete,
    { audit: { action: 'plan.comment_delete', target: commentTarget } },
    async (request) => {
      await deletePlanComment(app.db, request.record);
      await publishComments(request.record);
      return { message: 'Comment removed' };
    },
  );

  route(
    app,
    endpoints.planCommentResolve,
    { audit: { action: 'plan.comment_resolve', target: commentTarget } },
    async (request) => {
      const comment = await resolvePlanComment(app.db, request.user, request.record, request.params.commentId);
      await publishComments(request.record);
      return comment;
    },
  );

  route(
    app,
    endpoints.planCommentReply,
    { audit: { action: 'plan.comment_reply', target: commentTarget } },
    async (request) => {
      const { comment, replyId } = await replyToPlanComment(
        app.db,
        request.user,
        request.record,
        request.record.commentId,
        request.body.text,
      );
      request.auditDetail = {
        target: `case:${request.record.caseId}/plan:${request.record.planId}/comment:${comment.commentId}/reply:${replyId}`,
      };
      await publishComments(request.record);
      return comment;
    },
  );

  const shareTarget = paramTarget({ case: 'caseId', plan: 'planId', share: 'shareId' });

  route(app, endpoints.planShareCreate, { audit: { action: 'plan.share', target: planTarget } }, async (request) => {
    const created = await createPlanShare(
      { db: app.db, outbox: app.outbox, publicUrl: app.config.publicUrl },
      request.user,
      request.record,
      request.body,
    );
    request.auditDetail = {
      target: `case:${request.record.caseId}/plan:${request.record.planId}/share:${created.shareId}`,
      // A link mailed in the portal's name is its own action in the log.
      ...(created.emailedTo === null ? {} : { action: 'plan.share_email' as const }),
    };
    return created;
  });

  route(app, endpoints.planShareList, {}, (request) => listPlanShares(app.db, request.record));

  route(
    app,
    endpoints.planShareRevoke,
    { audit: { action: 'plan.share_revoke', target: shareTarget } },
    async (request) => {
      await revokePlanShare(app.db, request.record);
      return { message: 'Link revoked' };
    },
  );

  route(app, endpoints.planMovements, {}, async (request) =>
    readPlanMovements(app.db, request.record.planId, await stepLimits()),
  );

  // A stage's own copy, made when the plan's stages are not the same teeth moved (services/plans/plan-views.ts).
  route(app, endpoints.planFileView, {}, (request) => answerOriginalView(app, request));

  route(app, endpoints.planFileViewMesh, {}, (request, reply) => sendOriginalView(app, request, reply));
}
