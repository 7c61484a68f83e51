import { endpoints, type CaseMessage } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { paramTarget } from '../../plugins/audit.ts';
import { createCaseMessage, listMessagesOfCase, type CaseMessageRow } from '../../services/messages/case-messages.ts';
import { messageUploadLimits, receiveMessageUpload } from '../../services/messages/receive-message-upload.ts';
import { getUnreadCounts, markCaseRead } from '../../services/messages/unread-messages.ts';
import { sendCaseFile } from '../cases/send-case-file.ts';
import { answerOriginalView, sendOriginalView } from '../send-mesh-view.ts';
import { route } from '../define-route.ts';
import { multipartParts } from '../multipart-parts.ts';
import { messageFileUrl } from '../urls.ts';

const caseTarget = paramTarget({ case: 'caseId' });

/** A message as answered: each file's id becomes the address to download it from. */
const withFileUrls = ({ files, ...message }: CaseMessageRow): CaseMessage => ({
  ...message,
  attachments: files.map(({ fileId, ...file }) => ({ ...file, url: messageFileUrl(fileId, file.fileName) })),
});

export async function messageRoutes(app: FastifyInstance) {
  route(app, endpoints.caseUnread, {}, (request) => getUnreadCounts(app.db, request.user));

  route(app, endpoints.caseMessageList, {}, async (request) =>
    (await listMessagesOfCase(app.db, request.record)).map(withFileUrls),
  );

  route(
    app,
    endpoints.caseMessageCreate,
    { audit: { action: 'case.message', target: caseTarget }, isStreamedUpload: true },
    async (request) => {
      // Resolved before any file is received: nothing is stored for a case the caller cannot see.
      const found = request.record;
      const { maxUploadBytes, publicUrl } = app.config;
      const parts = multipartParts(request, messageUploadLimits(maxUploadBytes));
      const upload = await receiveMessageUpload(parts, app.storage, { maxUploadBytes });
      const deps = { db: app.db, storage: app.storage, outbox: app.outbox, jobs: app.jobs, publicUrl };
      const message = await createCaseMessage(deps, request.user, found, upload);
      // After the commit: a stream never hears of a message that was rolled back.
      await app.events.publish(
        {
          type: 'case.message',
          data: { caseId: found.caseId, messageId: message.messageId, side: message.side, at: message.at },
        },
        { doctorUserId: found.doctorUserId },
      );
      return withFileUrls(message);
    },
  );

  route(app, endpoints.caseMessagesRead, {}, async (request) => {
    await markCaseRead(app.db, request.user, request.record);
    return { message: 'Messages marked read' };
  });

  route(
    app,
    endpoints.caseMessageFileGet,
    { audit: { action: 'case.download', target: paramTarget({ message_file: 'fileId' }) } },
    async (request, reply) => {
      const file = request.record;
      request.auditDetail = { target: `case:${file.caseId}/message_file:${request.params.fileId}` };
      return sendCaseFile(request, reply, file);
    },
  );

  route(app, endpoints.messageFileView, {}, (request) => answerOriginalView(app, request));

  route(app, endpoints.messageFileViewMesh, {}, (request, reply) => sendOriginalView(app, request, reply));
}
