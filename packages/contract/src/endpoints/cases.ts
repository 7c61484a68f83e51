import { z } from 'zod';
import {
  caseAddResponse,
  caseAttachment,
  caseDetail,
  caseHistoryEntry,
  caseListQuery,
  caseRow,
  caseStats,
  caseStatusFilter,
  caseStatusRequest,
  caseSubmission,
  caseTimelineEntry,
  maxOtherFiles,
  otherFilesField,
  photoFileTypes,
  scanFileTypes,
} from '../cases.ts';
import { idParam, messageResponse } from '../common.ts';
import { meshViewAnswer, meshViewMesh } from '../mesh-views.ts';
import { defineEndpoint, type FileField } from '../endpoint.ts';
import { totalCountHeader } from './common.ts';

const tag = 'cases';
/** Dashboard staff, and doctors (scoped to their own by the services). */
const dashboard = { pages: ['/dashboard'], doctors: true } as const;

/** Whose cases: a doctor's UserId, or 0 for every doctor's (staff); a doctor always gets their own. */
const ownerParam = idParam.refine((id) => id >= 0, 'Id is out of range');
const caseIdParams = z.object({ caseId: idParam });

const caseFiles: FileField[] = [
  ...Object.keys(scanFileTypes).map((name) => ({
    name,
    required: name === 'maxillaryScan',
    description: 'Intraoral scan: STL, ZIP or RAR',
  })),
  ...Object.keys(photoFileTypes).map((name) => ({ name, description: 'Photo or X-ray: JPEG or PNG' })),
  { name: otherFilesField, multiple: true, description: `Other pictures, JPEG or PNG, at most ${maxOtherFiles}` },
];

export const caseEndpoints = {
  caseCreate: defineEndpoint({
    method: 'POST',
    path: '/api/case/add',
    operationId: 'caseCreate',
    summary: 'Submit a case: the prescription and its scans, photos and X-rays',
    tag,
    access: { pages: ['/cases'], doctors: true },
    bodyKind: 'multipart',
    body: caseSubmission,
    files: caseFiles,
    answer: caseAddResponse,
    errors: [404, 413, 415],
  }),
  caseStats: defineEndpoint({
    method: 'GET',
    path: '/api/case/get_all_stats/:userId',
    record: 'caseOwner',
    operationId: 'caseStats',
    summary: 'How many cases are in each status',
    tag,
    access: dashboard,
    params: z.object({ userId: ownerParam }),
    answer: caseStats.array(),
  }),
  caseList: defineEndpoint({
    method: 'GET',
    path: '/api/case/get_cases_by_status/:status/:userId',
    record: 'caseOwner',
    operationId: 'caseList',
    summary: 'One page of cases in a status, searched and sorted',
    tag,
    access: dashboard,
    params: z.object({ status: caseStatusFilter, userId: ownerParam }),
    query: caseListQuery,
    answer: caseRow.array(),
    answerHeaders: totalCountHeader,
  }),
  caseGet: defineEndpoint({
    method: 'GET',
    path: '/api/case/:caseId',
    record: 'case',
    operationId: 'caseGet',
    summary: 'One case: every field as read, its doctor and status',
    tag,
    access: dashboard,
    params: caseIdParams,
    answer: caseDetail,
    errors: [404],
  }),
  caseTimeline: defineEndpoint({
    method: 'GET',
    path: '/api/case/:caseId/timeline',
    record: 'case',
    operationId: 'caseTimeline',
    summary: "A case's timeline, oldest first: submission, files, status changes",
    tag,
    access: dashboard,
    params: caseIdParams,
    answer: caseTimelineEntry.array(),
    errors: [404],
  }),
  caseAttachmentList: defineEndpoint({
    method: 'GET',
    path: '/api/case/get_cases_attachments_by_case_id/:caseId',
    record: 'case',
    operationId: 'caseAttachmentList',
    summary: "A case's files, with their download paths",
    tag,
    access: dashboard,
    params: caseIdParams,
    answer: caseAttachment.array(),
    errors: [404],
  }),
  caseHistory: defineEndpoint({
    method: 'GET',
    path: '/api/case/get_case_history/:caseId',
    record: 'case',
    operationId: 'caseHistory',
    summary: "A case's status changes, oldest first",
    tag,
    access: dashboard,
    params: caseIdParams,
    answer: caseHistoryEntry.array(),
    errors: [404],
  }),
  caseStatusChange: defineEndpoint({
    method: 'PUT',
    path: '/api/case/status/:caseId',
    record: 'case',
    operationId: 'caseStatusChange',
    summary:
      'Move a case to another status (back only with a reason; dispatched with courier and tracking number); the doctor is e-mailed',
    tag,
    access: { pages: ['/dashboard'] },
    params: caseIdParams,
    body: caseStatusRequest,
    answer: messageResponse,
    errors: [404, 409],
  }),
  // The name in the path is for the browser's "save as"; the id alone picks the file.
  caseFileGet: defineEndpoint({
    method: 'GET',
    path: '/api/case/files/:attachmentId/:fileName',
    record: 'caseFile',
    operationId: 'caseFileGet',
    summary: "Download a case's file (HEAD too; one byte range gives 206)",
    tag,
    access: dashboard,
    params: z.object({ attachmentId: idParam, fileName: z.string().max(1000) }),
    answer: {
      file: {
        contentTypes: ['image/jpeg', 'image/png', 'application/octet-stream'],
        ranges: true,
        description: 'The file: JPEG and PNG inline, anything else as an application/octet-stream attachment',
      },
    },
    errors: [404],
  }),
  caseFileView: defineEndpoint({
    method: 'GET',
    path: '/api/case/file-views/:attachmentId',
    record: 'caseFile',
    operationId: 'caseFileView',
    summary: "Whether a case's STL has its viewing copy: made after upload by a background job",
    tag,
    access: dashboard,
    params: z.object({ attachmentId: idParam }),
    answer: meshViewAnswer,
    errors: [404],
  }),
  caseFileViewMesh: defineEndpoint({
    method: 'GET',
    path: '/api/case/file-views/:attachmentId/mesh.glb',
    record: 'caseFile',
    operationId: 'caseFileViewMesh',
    summary:
      "A case's STL as its viewing copy: welded, quantized, meshopt-compressed glTF (the original stays the download)",
    tag,
    access: dashboard,
    params: z.object({ attachmentId: idParam }),
    answer: meshViewMesh,
    errors: [404, 409],
  }),
};
