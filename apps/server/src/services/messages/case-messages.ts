import { caseMessageRequest, messageMessages, type MessageSide } from '@portal/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import { isDoctorSide, type SignedInUser } from '../../auth/policy.ts';
import type { Database } from '../../db/client.ts';
import { isoTimestamp } from '../../db/iso-timestamp.ts';
import { caseMessageFiles, caseMessageReads, caseMessages, users } from '../../db/schema.ts';
import { badRequest } from '../../lib/errors.ts';
import { parseWith } from '../../lib/multipart-form.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { MailOutbox } from '../../mail/outbox.ts';
import { deleteKeys } from '../../storage/delete-keys.ts';
import type { Storage } from '../../storage/storage.ts';
import type { VisibleCase } from '../cases/case-access.ts';
import { queueMeshViews } from '../mesh-views.ts';
import { mailOtherSide } from './message-mail.ts';
import type { ReceivedMessageUpload } from './receive-message-upload.ts';
import { fullNameOf } from '../../db/user-names.ts';

/** A message as stored, with its files' ids (the route turns them into download addresses). */
export interface CaseMessageRow {
  messageId: number;
  caseId: number;
  authorUserId: number;
  authorName: string;
  side: MessageSide;
  text: string;
  at: string;
  files: { fileId: number; fileName: string; fileSize: number; contentType: string }[];
}

// An assistant writes on the doctor's side, under their own name.
const sideOf = (actor: SignedInUser): MessageSide => (isDoctorSide(actor) ? 'doctor' : 'lab');

const authorName = fullNameOf();

/** Messages, oldest first, each with its files: a whole case's, or one message of it. */
async function selectMessages(db: Database, caseId: number, messageId?: number): Promise<CaseMessageRow[]> {
  const [messages, files] = await Promise.all([
    db
      .select({
        messageId: caseMessages.messageId,
        caseId: caseMessages.caseId,
        authorUserId: caseMessages.authorUserId,
        authorName,
        side: caseMessages.side,
        text: caseMessages.body,
        at: isoTimestamp(caseMessages.createdAt),
      })
      .from(caseMessages)
      .innerJoin(users, eq(users.userId, caseMessages.authorUserId))
      .where(
        and(
          eq(caseMessages.caseId, caseId),
          messageId === undefined ? undefined : eq(caseMessages.messageId, messageId),
        ),
      )
      .orderBy(asc(caseMessages.messageId)),
    db
      .select({
        messageId: caseMessageFiles.messageId,
        fileId: caseMessageFiles.fileId,
        fileName: caseMessageFiles.fileName,
        fileSize: caseMessageFiles.fileSize,
        contentType: caseMessageFiles.contentType,
      })
      .from(caseMessageFiles)
      .where(
        and(
          eq(caseMessageFiles.caseId, caseId),
          messageId === undefined ? undefined : eq(caseMessageFiles.messageId, messageId),
        ),
      )
      .orderBy(asc(caseMessageFiles.fileId)),
  ]);
  const filesOf = new Map<number, CaseMessageRow['files']>();
  for (const { messageId, ...file } of files) filesOf.set(messageId, [...(filesOf.get(messageId) ?? []), file]);
  return messages.map((message) => ({ ...message, files: filesOf.get(message.messageId) ?? [] }));
}

/** A case's messages, oldest first, each with its files. */
export const listMessagesOfCase = (db: Database, { caseId }: VisibleCase) => selectMessages(db, caseId);

/**
 * Records a message and its files, queues its STLs' viewing copies, marks the case read for
 * its author and queues the other side's e-mail (throttled), in one transaction. On any failure the stored files are
 * deleted: a refused message leaves nothing behind. Answers the message and whose case it
 * is, for the live event the route publishes after the commit.
 */
export async function createCaseMessage(
  deps: { db: Database; storage: Storage; outbox: MailOutbox; jobs: JobQueue; publicUrl: string },
  actor: SignedInUser,
  found: VisibleCase,
  upload: ReceivedMessageUpload,
): Promise<CaseMessageRow> {
  const { caseId } = found;
  try {
    const { text } = parseWith(caseMessageRequest, upload.fields);
    const body = text.trim();
    if (!body && upload.files.length === 0) throw badRequest(messageMessages.blank, { text: messageMessages.blank });
    const side = sideOf(actor);
    const messageId = await deps.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(caseMessages)
        .values({ caseId, authorUserId: actor.userId, side, body })
        .returning({ messageId: caseMessages.messageId });
      const id = created!.messageId;
      if (upload.files.length > 0) {
        await tx.insert(caseMessageFiles).values(
          upload.files.map((file) => ({
            messageId: id,
            caseId,
            fileName: file.fileName,
            storageKey: file.storageKey,
            contentType: file.contentType,
            fileSize: file.size,
            sha256: file.sha256,
          })),
        );
      }
      await queueMeshViews(tx, deps.jobs, upload.files, found.doctorUserId);
      await tx
        .insert(caseMessageReads)
        .values({ caseId, userId: actor.userId, lastReadMessageId: id })
        .onConflictDoUpdate({
          target: [caseMessageReads.userId, caseMessageReads.caseId],
          set: { lastReadMessageId: sql`greatest(${caseMessageReads.lastReadMessageId}, ${id})` },
        });
      await mailOtherSide(tx, deps.outbox, {
        caseId,
        trackingNo: found.trackingNo,
        side,
        doctorUserId: found.doctorUserId,
        caseUrl: `${deps.publicUrl}/cases/${caseId}`,
      });
      return id;
    });
    deps.outbox.kick();
    deps.jobs.kick();
    const [message] = await selectMessages(deps.db, caseId, messageId);
    return message!;
  } catch (error) {
    await deleteKeys(
      deps.storage,
      upload.files.map((file) => file.storageKey),
    );
    throw error;
  }
}
