import { endpoints } from '@portal/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { cases } from '../../db/schema.ts';
import { paramTarget } from '../../plugins/audit.ts';
import {
  assertRoomForScan,
  createProgressScan,
  findApprovedPlan,
  findProgressView,
  listProgressScans,
  readProgressScan,
  type PublishProgress,
} from '../../services/plans/progress-scans.ts';
import { progressScanLimits, receiveProgressScan } from '../../services/plans/receive-progress-scan.ts';
import { deleteKeys } from '../../storage/delete-keys.ts';
import { route } from '../define-route.ts';
import { multipartParts } from '../multipart-parts.ts';

const caseTarget = paramTarget({ case: 'caseId' });

/** A `case.progressScan` event to the case's doctor's side and the lab, after the change committed. */
export const progressPublisher =
  (app: FastifyInstance): PublishProgress =>
  async ({ caseId, progressScanId, state }) => {
    const [found] = await app.db
      .select({ doctorUserId: cases.doctorUserId })
      .from(cases)
      .where(eq(cases.caseId, caseId));
    if (!found) return;
    await app.events.publish(
      { type: 'case.progressScan', data: { caseId, progressScanId, state, at: new Date().toISOString() } },
      { doctorUserId: found.doctorUserId },
    );
  };

/** Progress scans (docs/decisions/progress-scans.md): sent with the stage worn, fitted by a background job. */
export async function progressScanRoutes(app: FastifyInstance) {
  const publish = progressPublisher(app);
  route(
    app,
    endpoints.progressScanCreate,
    { audit: { action: 'progressScan.create', target: caseTarget }, isStreamedUpload: true },
    async (request, reply) => {
      // The case was resolved (404) before a byte is read; no approved plan or no room is 409 before any is stored.
      const record = request.record;
      const plan = await findApprovedPlan(app.db, record.caseId);
      await assertRoomForScan(app.db, record.caseId);
      const { maxUploadBytes } = app.config;
      const parts = multipartParts(request, progressScanLimits(maxUploadBytes));
      const { stage, files } = await receiveProgressScan(parts, app.storage, plan, { maxUploadBytes });
      let created: Awaited<ReturnType<typeof createProgressScan>>;
      try {
        created = await createProgressScan({ db: app.db, jobs: app.jobs }, request.user, record, plan, stage, files);
      } catch (error) {
        await deleteKeys(
          app.storage,
          files.map((file) => file.storageKey),
        );
        throw error;
      }
      request.auditDetail = { target: `case:${record.caseId}/progressScan:${created.progressScanId}` };
      await publish({ caseId: record.caseId, progressScanId: created.progressScanId, state: 'queued' });
      return reply.status(202).send(created);
    },
  );

  route(app, endpoints.progressScanList, {}, (request) => listProgressScans(app.db, request.record.caseId));

  route(app, endpoints.progressScanGet, {}, (request) =>
    readProgressScan(app.db, request.record.caseId, request.record.progressScanId),
  );

  // The scan in the plan's frame with its distances, as a scan's viewing copy is sent (send-mesh-view.ts); the record resolved the scan in reach.
  route(app, endpoints.progressScanView, {}, async (request, reply) => {
    const view = await findProgressView(app.db, request.record.progressScanId, request.params.arch);
    reply
      .header('content-type', 'model/gltf-binary')
      .header('content-length', view.bytes)
      .header('x-content-type-options', 'nosniff');
    return reply.send(request.method === 'HEAD' ? '' : await app.storage.read(view.key));
  });
}
