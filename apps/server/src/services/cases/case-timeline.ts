import type { CaseAttachment, CaseTimelineEntry } from '@portal/contract';
import { asc, eq, sql } from 'drizzle-orm';
import type { SignedInUser } from '../../auth/policy.ts';
import type { Database } from '../../db/client.ts';
import { isoTimestamp } from '../../db/iso-timestamp.ts';
import { caseAttachments, caseStatusHistory, users } from '../../db/schema.ts';
import { listMessagesOfCase, type CaseMessageRow } from '../messages/case-messages.ts';
import { findVisibleCase } from './find-cases.ts';

/**
 * A case's timeline, oldest first (docs/decisions.md § The case page and its timeline): its
 * submission ('created', from the first history row), the files sent with it ('files', at
 * the same moment), then every status change with its note, reason, courier and tracking
 * number, and the conversation's messages ('message') merged in by `at`.
 */
export async function getCaseTimeline(db: Database, actor: SignedInUser, caseId: number): Promise<CaseTimelineEntry[]> {
  const found = await findVisibleCase(db, actor, caseId);
  const [history, files, messages] = await Promise.all([
    db
      .select({
        from: caseStatusHistory.fromStatus,
        to: caseStatusHistory.toStatus,
        by: caseStatusHistory.changedBy,
        byName: sql<string>`(${users.firstName} || ' ' || ${users.lastName})`,
        at: isoTimestamp(caseStatusHistory.changedAt),
        note: caseStatusHistory.note,
        reason: caseStatusHistory.reason,
        courier: caseStatusHistory.courier,
        trackingNumber: caseStatusHistory.trackingNumber,
      })
      .from(caseStatusHistory)
      .innerJoin(users, eq(users.userId, caseStatusHistory.changedBy))
      .where(eq(caseStatusHistory.caseId, caseId))
      .orderBy(asc(caseStatusHistory.historyId)),
    db
      .select({ FileName: caseAttachments.fileName, FileType: caseAttachments.fileType })
      .from(caseAttachments)
      .where(eq(caseAttachments.caseId, caseId))
      .orderBy(asc(caseAttachments.attachmentId)),
    listMessagesOfCase(db, caseId),
  ]);

  const timeline: CaseTimelineEntry[] = [];
  for (const { from, to, by, byName, at, ...carried } of history) {
    if (from === null) {
      timeline.push({ kind: 'created', at, by, byName, trackingNo: found.trackingNo });
      if (files.length > 0) {
        timeline.push({
          kind: 'files',
          at,
          files: files.map((file) => ({ ...file, FileType: file.FileType as CaseAttachment['FileType'] })),
        });
      }
    } else {
      timeline.push({ kind: 'status', at, by, byName, from, to, ...carried });
    }
  }
  return mergeByTime(timeline, messages.map(messageEntry));
}

const messageEntry = (message: CaseMessageRow): CaseTimelineEntry => ({
  kind: 'message',
  at: message.at,
  by: message.authorUserId,
  byName: message.authorName,
  side: message.side,
  text: message.text,
  attachments: message.files.map(({ fileName }) => ({ fileName })),
});

/** Two lists, each oldest first, as one; on equal times the first list's entry comes first. */
function mergeByTime(first: CaseTimelineEntry[], second: CaseTimelineEntry[]): CaseTimelineEntry[] {
  const merged: CaseTimelineEntry[] = [];
  let i = 0;
  let j = 0;
  while (i < first.length || j < second.length) {
    const takeFirst = j >= second.length || (i < first.length && Date.parse(first[i]!.at) <= Date.parse(second[j]!.at));
    merged.push(takeFirst ? first[i++]! : second[j++]!);
  }
  return merged;
}
