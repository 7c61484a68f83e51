import { caseStatusLabels, endpoints } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { paramTarget } from '../../plugins/audit.ts';
import { changeCaseStatus, getCaseHistory } from '../../services/cases/case-status.ts';
import { createCase } from '../../services/cases/create-case.ts';
import { assignCase, findDoctorOptions, listAssignees } from '../../services/cases/case-assignment.ts';
import { listCaseZipEntries } from '../../services/cases/case-files-zip.ts';
import { createThumbnailMaker } from '../../services/cases/case-thumbnails.ts';
import { addCaseNote, listCaseNotes } from '../../services/cases/case-notes.ts';
import { createdRange, overdueCutoffs } from '../../services/cases/case-rows.ts';
import { tooManyRequests } from '../../lib/errors.ts';
import { turnaroundTargets } from '../../services/lab-settings.ts';
import { getCaseTimeline } from '../../services/cases/case-timeline.ts';
import { findCases, getCaseStats } from '../../services/cases/list-cases.ts';
import { getCase, listCaseAttachments } from '../../services/cases/read-case.ts';
import { caseUploadLimits, receiveCaseUpload } from '../../services/cases/receive-case-upload.ts';
import { route } from '../define-route.ts';
import { answerOriginalView, sendOriginalView } from '../send-mesh-view.ts';
import { multipartParts } from '../multipart-parts.ts';
import { withFileUrl } from '../urls.ts';
import { contentDisposition, sendCaseFile } from './send-case-file.ts';
import { zipOf } from './zip-of.ts';

const caseTarget = paramTarget({ case: 'caseId' });
const maxZipsPerUser = 2;

export async function caseRoutes(app: FastifyInstance) {
  route(app, endpoints.caseCreate, { audit: { action: 'case.create' }, isStreamedUpload: true }, async (request) => {
    const { maxUploadBytes } = app.config;
    const parts = multipartParts(request, caseUploadLimits(maxUploadBytes));
    const upload = await receiveCaseUpload(parts, app.storage, { maxUploadBytes });
    const deps = {
      db: app.db,
      storage: app.storage,
      jobs: app.jobs,
      outbox: app.outbox,
      publicUrl: app.config.publicUrl,
    };
    const created = await createCase(deps, request.user, upload);
    request.auditDetail = { target: `case:${created.caseId}` };
    return { message: 'Case submitted successfully', CaseId: created.caseId, TrackingNo: created.trackingNo };
  });

  route(app, endpoints.caseStats, {}, (request) => getCaseStats(app.db, request.record.doctorUserIds));

  route(app, endpoints.caseList, {}, async (request, reply) => {
    const { assignee } = request.query;
    const scope = {
      doctorUserIds: request.record.doctorUserIds,
      status: request.params.status,
      // `mine`: the caller's cases as the lab's technician (a doctor is no one's: none).
      ...(assignee && { assigneeUserId: assignee === 'mine' ? request.user.userId : null }),
      ...(request.query.overdue && { overdue: overdueCutoffs(await turnaroundTargets(app.db)) }),
      ...createdRange(request.query),
      ...(request.query.offTrack && { offTrack: true }),
    };
    const { rows, total } = await findCases(app.db, scope, request.query);
    reply.header('x-total-count', total);
    return rows;
  });

  route(app, endpoints.caseGet, { audit: { action: 'case.view', target: caseTarget } }, (request) =>
    getCase(app.db, request.user, request.record),
  );

  route(app, endpoints.caseTimeline, {}, (request) => getCaseTimeline(app.db, request.user, request.record));

  route(app, endpoints.caseAttachmentList, { audit: { action: 'case.view', target: caseTarget } }, async (request) =>
    (await listCaseAttachments(app.db, request.record)).map(withFileUrl),
  );

  route(app, endpoints.caseHistory, {}, (request) => getCaseHistory(app.db, request.record));

  route(app, endpoints.caseStatusChange, { audit: { action: 'case.status', target: caseTarget } }, async (request) => {
    const deps = { db: app.db, outbox: app.outbox, publicUrl: app.config.publicUrl };
    const { status } = request.body;
    const { caseId } = request.record;
    const changed = await changeCaseStatus(deps, request.user, caseId, request.body);
    // After the commit: a stream never hears of a change that was rolled back.
    await app.events.publish(
      { type: 'case.status', data: { caseId, status, at: changed.at } },
      { doctorUserId: changed.doctorUserId },
    );
    return { message: `Case status changed to ${caseStatusLabels[status]}` };
  });

  route(
    app,
    endpoints.caseFileGet,
    { audit: { action: 'case.download', target: paramTarget({ attachment: 'attachmentId' }) } },
    async (request, reply) => {
      const file = request.record;
      request.auditDetail = { target: `case:${file.caseId}/attachment:${request.params.attachmentId}` };
      return sendCaseFile(request, reply, file);
    },
  );

  route(app, endpoints.caseTurnaround, {}, async () => ({ targets: await turnaroundTargets(app.db) }));

  route(app, endpoints.caseDoctorOptions, {}, (request) => findDoctorOptions(app.db, request.query));

  route(app, endpoints.caseAssigneeList, {}, () => listAssignees(app.db));

  route(app, endpoints.caseAssign, { audit: { action: 'case.assign', target: caseTarget } }, async (request) => {
    const { caseId, doctorUserId } = request.record;
    const { assignee, changedAt } = await assignCase(app.db, request.user, request.record, request.body.userId);
    if (changedAt !== null) {
      // After the commit: a stream never hears of a change that was rolled back.
      await app.events.publish(
        { type: 'case.assignee', data: { caseId, assigneeUserId: assignee?.userId ?? null, at: changedAt } },
        { doctorUserId },
      );
    }
    return { message: assignee ? `Case assigned to ${assignee.name}` : 'Case unassigned', assignee };
  });

  route(app, endpoints.caseNoteList, {}, (request) => listCaseNotes(app.db, request.record));

  route(app, endpoints.caseNoteAdd, { audit: { action: 'case.note', target: caseTarget } }, (request) =>
    addCaseNote(app.db, request.user, request.record, request.body),
  );

  // A ZIP streams for as long as the files take: each user has at most two at once.
  const zipsOpen = new Map<number, number>();
  route(
    app,
    endpoints.caseFilesZip,
    { audit: { action: 'case.download', target: caseTarget } },
    async (request, reply) => {
      const { caseId, trackingNo } = request.record;
      request.auditDetail = { target: `case:${caseId}/files.zip` };
      reply
        .header('content-type', 'application/zip')
        .header('content-disposition', contentDisposition('attachment', `${trackingNo}.zip`))
        .header('x-content-type-options', 'nosniff');
      if (request.method === 'HEAD') return reply.send();
      const { userId } = request.user;
      const open = zipsOpen.get(userId) ?? 0;
      if (open >= maxZipsPerUser) throw tooManyRequests('At most 2 ZIP downloads at once: wait for one to finish');
      const entries = await listCaseZipEntries(app.db, request.record);
      zipsOpen.set(userId, open + 1);
      reply.raw.once('close', () => {
        const left = (zipsOpen.get(userId) ?? 1) - 1;
        if (left > 0) zipsOpen.set(userId, left);
        else zipsOpen.delete(userId);
      });
      return reply.send(zipOf(entries, (key) => app.storage.read(key)));
    },
  );

  // No audit: thumbnails are what the case page shows, not downloads (docs/decisions/uploads.md § Photo thumbnails and the gallery).
  const thumbnails = createThumbnailMaker(app.storage);
  route(app, endpoints.caseFileThumbnail, {}, async (request, reply) => {
    const thumbnail = await thumbnails.thumbnailOf(request.record);
    reply
      .header('content-type', 'image/webp')
      .header('content-length', thumbnail.size)
      .header('x-content-type-options', 'nosniff');
    return reply.send(request.method === 'HEAD' ? '' : await app.storage.read(thumbnail.key));
  });

  route(app, endpoints.caseFileView, {}, (request) => answerOriginalView(app, request));

  route(app, endpoints.caseFileViewMesh, {}, (request, reply) => sendOriginalView(app, request, reply));
}
