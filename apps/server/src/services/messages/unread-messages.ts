import type { UnreadCount } from '@portal/contract';
import { and, eq, gt, max, sql } from 'drizzle-orm';
import { isDoctorSide, type SignedInUser } from '../../auth/policy.ts';
import type { Database } from '../../db/client.ts';
import { caseMessageReads, caseMessages, cases } from '../../db/schema.ts';
import { visibleCasesCondition, type VisibleCase } from '../cases/case-access.ts';

/** The caller's read mark of a message's case: what `unreadBy` compares with (a left join). */
export const readMarkOf = (actor: SignedInUser) =>
  and(eq(caseMessageReads.caseId, caseMessages.caseId), eq(caseMessageReads.userId, actor.userId));

/** Messages of the other side past the caller's read mark (joined by `readMarkOf`). */
export const unreadBy = (actor: SignedInUser) =>
  and(
    eq(caseMessages.side, isDoctorSide(actor) ? 'lab' : 'doctor'),
    gt(caseMessages.messageId, sql`coalesce(${caseMessageReads.lastReadMessageId}, 0)`),
  );

/**
 * How many messages of the other side the caller has not read, per case (docs/decisions/messages.md
 * § Messages): a doctor counts the lab's on their own cases (an assistant on their doctors'),
 * staff the doctors' on every case; a message is read once the caller's read mark reaches it.
 */
export async function getUnreadCounts(db: Database, actor: SignedInUser): Promise<UnreadCount[]> {
  const unread = sql<number>`count(*)::int`;
  const rows = await db
    .select({ caseId: caseMessages.caseId, unread })
    .from(caseMessages)
    .innerJoin(cases, eq(cases.caseId, caseMessages.caseId))
    .leftJoin(caseMessageReads, readMarkOf(actor))
    .where(and(unreadBy(actor), visibleCasesCondition(actor)))
    .groupBy(caseMessages.caseId)
    .orderBy(caseMessages.caseId);
  return rows;
}

/** Moves the caller's read mark to the case's newest message (never back). */
export async function markCaseRead(db: Database, actor: SignedInUser, { caseId }: VisibleCase): Promise<void> {
  const [newest] = await db
    .select({ messageId: max(caseMessages.messageId) })
    .from(caseMessages)
    .where(eq(caseMessages.caseId, caseId));
  const lastReadMessageId = newest?.messageId;
  if (!lastReadMessageId) return;
  await db
    .insert(caseMessageReads)
    .values({ caseId, userId: actor.userId, lastReadMessageId })
    .onConflictDoUpdate({
      target: [caseMessageReads.userId, caseMessageReads.caseId],
      set: { lastReadMessageId: sql`greatest(${caseMessageReads.lastReadMessageId}, ${lastReadMessageId})` },
    });
}
