import { caseStatusLabels, endpoints } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { caseOwnerScope } from '../../auth/policy.ts';
import { paramTarget } from '../../plugins/audit.ts';
import { changeCaseStatus, getCaseHistory } from '../../services/cases/case-status.ts';
import { findCaseFile } from '../../services/cases/case-files.ts';
import { createCase } from '../../services/cases/create-case.ts';
import { getCaseTimeline } from '../../services/cases/case-timeline.ts';
import { findCases, getCaseStats } from '../../services/cases/list-cases.ts';
import { getCase, listCaseAttachments } from '../../services/cases/read-case.ts';
import { caseUploadLimits, receiveCaseUpload } from '../../services/cases/receive-case-upload.ts';
import { route } from '../define-route.ts';
import { multipartParts } from '../multipart-parts.ts';
import { withFileUrl } from '../urls.ts';
import { sendCaseFile } from './send-case-file.ts';

const caseTarget = paramTarget({ case: 'caseId' });

export async function caseRoutes(app: FastifyInstance) {
  route(app, endpoints.caseCreate, { audit: { action: 'case.create' }, isStreamedUpload: true }, async (request) => {
    const { maxUploadBytes } = app.config;
    const parts = multipartParts(request, caseUploadLimits(maxUploadBytes));
    const upload = await receiveCaseUpload(parts, app.storage, { maxUploadBytes });
    const created = await createCase({ db: app.db, storage: app.storage }, request.user, upload);
    request.auditDetail = { target: `case:${created.caseId}` };
    return { message: 'Case submitted successfully', CaseId: created.caseId, TrackingNo: created.trackingNo };
  });

  route(app, endpoints.caseStats, {}, (request) =>
    getCaseStats(app.db, caseOwnerScope(request.user, request.params.userId)),
  );

  route(app, endpoints.caseList, {}, async (request, reply) => {
    const { status, userId } = request.params;
    const scope = { doctorUserId: caseOwnerScope(request.user, userId), status };
    const { rows, total } = await findCases(app.db, scope, request.query);
    reply.header('x-total-count', total);
    return rows;
  });

  route(app, endpoints.caseGet, { audit: { action: 'case.view', target: caseTarget } }, (request) =>
    getCase(app.db, request.user, request.params.caseId),
  );

  route(app, endpoints.caseTimeline, {}, (request) => getCaseTimeline(app.db, request.user, request.params.caseId));

  route(app, endpoints.caseAttachmentList, { audit: { action: 'case.view', target: caseTarget } }, async (request) =>
    (await listCaseAttachments(app.db, request.user, request.params.caseId)).map(withFileUrl),
  );

  route(app, endpoints.caseHistory, {}, (request) => getCaseHistory(app.db, request.user, request.params.caseId));

  route(app, endpoints.caseStatusChange, { audit: { action: 'case.status', target: caseTarget } }, async (request) => {
    const deps = { db: app.db, outbox: app.outbox, publicUrl: app.config.publicUrl };
    const { status } = request.body;
    const changed = await changeCaseStatus(deps, request.user, request.params.caseId, request.body);
    // After the commit: a stream never hears of a change that was rolled back.
    await app.events.publish(
      { type: 'case.status', data: { caseId: request.params.caseId, status, at: changed.at } },
      { doctorUserId: changed.doctorUserId },
    );
    return { message: `Case status changed to ${caseStatusLabels[status]}` };
  });

  route(
    app,
    endpoints.caseFileGet,
    { audit: { action: 'case.download', target: paramTarget({ attachment: 'attachmentId' }) } },
    async (request, reply) => {
      const file = await findCaseFile(app, request.user, 'attachment', request.params.attachmentId);
      request.auditDetail = { target: `case:${file.caseId}/attachment:${request.params.attachmentId}` };
      return sendCaseFile(request, reply, file);
    },
  );
}
