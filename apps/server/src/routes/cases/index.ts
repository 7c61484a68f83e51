import {
  caseAddResponse,
  caseAttachment,
  caseHistoryEntry,
  caseListQuery,
  caseRow,
  caseStats,
  caseStatusFilter,
  caseStatusLabels,
  caseStatusRequest,
  idParam,
  messageResponse,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { paramTarget } from '../../plugins/audit.ts';
import { createCase } from '../../services/cases/create-case.ts';
import { changeCaseStatus, getCaseHistory } from '../../services/cases/case-status.ts';
import { findCaseFile } from '../../services/cases/case-files.ts';
import { caseOwnerScope, findCases, getCaseStats, listCaseAttachments } from '../../services/cases/find-cases.ts';
import { receiveCaseUpload } from '../../services/cases/receive-case-upload.ts';
import { errorResponses, signedInErrors } from '../responses.ts';
import { sendCaseFile } from './send-case-file.ts';

/** Case lists, stats, attachments and files: Dashboard staff, and doctors (scoped to their own in the services). */
const dashboard = { access: { pages: ['/dashboard' as const], doctors: true } };
const tags = ['cases'];

const userIdParam = idParam.refine((id) => id >= 0, 'Id is out of range');
const caseIdParams = z.object({ caseId: idParam });
const caseTarget = paramTarget({ case: 'caseId' });

export const caseRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/add',
    {
      config: { access: { pages: ['/cases'], doctors: true }, audit: { action: 'case.create' } },
      schema: {
        tags,
        consumes: ['multipart/form-data'],
        response: { 200: caseAddResponse, ...signedInErrors, ...errorResponses(413, 415) },
      },
    },
    async (request) => {
      const upload = await receiveCaseUpload(request, app.storage, { maxUploadBytes: app.config.maxUploadBytes });
      const created = await createCase({ db: app.db, storage: app.storage }, request.user!, upload);
      request.auditDetail = { target: `case:${created.caseId}` };
      return { message: 'Case submitted successfully', CaseId: created.caseId, TrackingNo: created.trackingNo };
    },
  );

  app.get(
    '/get_all_stats/:userId',
    {
      config: dashboard,
      schema: {
        tags,
        params: z.object({ userId: userIdParam }),
        response: { 200: caseStats.array(), ...signedInErrors },
      },
    },
    (request) => getCaseStats(app.db, caseOwnerScope(request.user!, request.params.userId)),
  );

  app.get(
    '/get_cases_by_status/:status/:userId',
    {
      config: dashboard,
      schema: {
        tags,
        params: z.object({ status: caseStatusFilter, userId: userIdParam }),
        querystring: caseListQuery,
        response: { 200: caseRow.array(), ...signedInErrors },
      },
    },
    async (request, reply) => {
      const { status, userId } = request.params;
      const { rows, total } = await findCases(
        app.db,
        { doctorUserId: caseOwnerScope(request.user!, userId), status },
        request.query,
      );
      reply.header('x-total-count', total);
      return rows;
    },
  );

  app.get(
    '/get_cases_attachments_by_case_id/:caseId',
    {
      config: { ...dashboard, audit: { action: 'case.view', target: caseTarget } },
      schema: {
        tags,
        params: caseIdParams,
        response: { 200: caseAttachment.array(), ...signedInErrors, ...errorResponses(404) },
      },
    },
    (request) => listCaseAttachments(app.db, request.user!, request.params.caseId),
  );

  app.get(
    '/get_case_history/:caseId',
    {
      config: dashboard,
      schema: {
        tags,
        params: caseIdParams,
        response: { 200: caseHistoryEntry.array(), ...signedInErrors, ...errorResponses(404) },
      },
    },
    (request) => getCaseHistory(app.db, request.user!, request.params.caseId),
  );

  app.put(
    '/status/:caseId',
    {
      config: { access: { pages: ['/dashboard'] }, audit: { action: 'case.status', target: caseTarget } },
      schema: {
        tags,
        params: caseIdParams,
        body: caseStatusRequest,
        response: { 200: messageResponse, ...signedInErrors, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      const { status } = request.body;
      await changeCaseStatus(
        { db: app.db, outbox: app.outbox, publicUrl: app.config.publicUrl },
        request.user!,
        request.params.caseId,
        status,
      );
      return { message: `Case status changed to ${caseStatusLabels[status]}` };
    },
  );

  // The name in the path is for the browser's "save as"; the id alone picks the file.
  app.get(
    '/files/:attachmentId/:fileName',
    {
      config: { ...dashboard, audit: { action: 'case.download', target: paramTarget({ attachment: 'attachmentId' }) } },
      schema: { tags, params: z.object({ attachmentId: idParam, fileName: z.string().max(1000) }) },
    },
    async (request, reply) => {
      const file = await findCaseFile(app.db, app.storage, request.user!, request.params.attachmentId);
      request.auditDetail = { target: `case:${file.caseId}/attachment:${request.params.attachmentId}` };
      return sendCaseFile(request, reply, file);
    },
  );
};
