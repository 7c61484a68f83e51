import { z } from 'zod';
import { idParam, messageResponse } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import { meshViewAnswer, meshViewMesh } from '../mesh-views.ts';
import { caseMessage, caseMessageRequest, maxMessageFiles, messageFilesField, unreadCount } from '../messages.ts';

const tag = 'cases';
/** The case's doctor and Dashboard staff (docs/decisions/messages.md § Messages); another doctor's case is 404. */
const dashboard = { pages: ['/dashboard'], doctors: true, assistants: true } as const;
const caseIdParams = z.object({ caseId: idParam });

export const messageEndpoints = {
  caseUnread: defineEndpoint({
    method: 'GET',
    path: '/api/case/unread',
    operationId: 'caseUnread',
    summary:
      "The cases with messages the caller has not read, and how many (a doctor: the lab's on their cases; staff: doctors')",
    tag,
    access: dashboard,
    answer: unreadCount.array(),
  }),
  caseMessageList: defineEndpoint({
    method: 'GET',
    path: '/api/case/:caseId/messages',
    record: 'case',
    operationId: 'caseMessageList',
    summary: "A case's conversation between its doctor and the lab, oldest first",
    tag,
    access: dashboard,
    params: caseIdParams,
    answer: caseMessage.array(),
    errors: [404],
  }),
  caseMessageCreate: defineEndpoint({
    method: 'POST',
    path: '/api/case/:caseId/messages',
    record: 'case',
    operationId: 'caseMessageCreate',
    summary:
      'Write a message about a case, with files; the other side is e-mailed (at most once per case in 10 minutes)',
    tag,
    access: dashboard,
    params: caseIdParams,
    bodyKind: 'multipart',
    body: caseMessageRequest,
    files: [
      {
        name: messageFilesField,
        multiple: true,
        description: `JPEG, PNG, PDF or STL files, at most ${maxMessageFiles}`,
      },
    ],
    answer: caseMessage,
    errors: [404, 413, 415],
  }),
  caseMessagesRead: defineEndpoint({
    method: 'POST',
    path: '/api/case/:caseId/messages/read',
    record: 'case',
    operationId: 'caseMessagesRead',
    summary: 'Mark every message of a case read for the caller',
    tag,
    access: dashboard,
    params: caseIdParams,
    answer: messageResponse,
    errors: [404],
  }),
  // The name in the path is for the browser's "save as"; the id alone picks the file.
  caseMessageFileGet: defineEndpoint({
    method: 'GET',
    path: '/api/case/message_files/:fileId/:fileName',
    record: 'messageFile',
    operationId: 'caseMessageFileGet',
    summary: "Download a message's file (HEAD too; one byte range gives 206)",
    tag,
    access: dashboard,
    params: z.object({ fileId: idParam, fileName: z.string().max(1000) }),
    answer: {
      file: {
        contentTypes: ['image/jpeg', 'image/png', 'application/octet-stream'],
        ranges: true,
        description: 'The file: JPEG and PNG inline, anything else as an application/octet-stream attachment',
      },
    },
    errors: [404],
  }),
  messageFileView: defineEndpoint({
    method: 'GET',
    path: '/api/case/message-file-views/:fileId',
    record: 'messageFile',
    operationId: 'messageFileView',
    summary: "Whether a message's STL has its viewing copy: made after the message by a background job",
    tag,
    access: dashboard,
    params: z.object({ fileId: idParam }),
    answer: meshViewAnswer,
    errors: [404],
  }),
  messageFileViewMesh: defineEndpoint({
    method: 'GET',
    path: '/api/case/message-file-views/:fileId/mesh.glb',
    record: 'messageFile',
    operationId: 'messageFileViewMesh',
    summary:
      "A message's STL as its viewing copy: welded, quantized, meshopt-compressed glTF (the original stays the download)",
    tag,
    access: dashboard,
    params: z.object({ fileId: idParam }),
    answer: meshViewMesh,
    errors: [404, 409],
  }),
};
