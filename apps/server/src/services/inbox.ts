import {
  inboxExcerptLength,
  maxInboxItems,
  type InboxAnswer,
  type InboxItem,
  type InboxItemKind,
  type InboxQuery,
} from '@portal/contract';
import { and, count, desc, eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { isDoctorSide, type SignedInUser } from '../auth/policy.ts';
import type { Database } from '../db/client.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';
import { caseMessageReads, caseMessages, cases, treatmentPlans } from '../db/schema.ts';
import { visibleCasesCondition } from './cases/case-access.ts';
import { readMarkOf, unreadBy } from './messages/unread-messages.ts';

const patientName = sql<string>`(${cases.firstName} || ' ' || ${cases.lastName})`;
/** Every row of the query before its limit: the counts beside a page, in the same read. */
const totalRows = sql<number>`(count(*) over ())::int`;

/** Where the last page ended, parsed (the contract checked its form). */
interface Cursor {
  at: string;
  kind: InboxItemKind;
  id: number;
}
const parseCursor = (cursor: string): Cursor => {
  const [at, kind, id] = cursor.split('~');
  return { at: at!, kind: kind as InboxItemKind, id: Number(id) };
};
const cursorOf = (item: InboxItem) => `${item.at}~${item.kind}~${item.itemId}`;

/** An item's time as the answer shows it (milliseconds): what pages are ordered and cut by. */
const shownAt = (at: SQLWrapper) => sql`date_trunc('milliseconds', ${at})`;

/**
 * Items come newest first (to the millisecond the answer shows), then messages before plans,
 * then the higher id first; this keeps those after the cursor. `at` is the item's time column.
 */
function afterCursor(cursor: Cursor | undefined, kind: InboxItemKind, at: SQLWrapper, id: SQLWrapper) {
  if (!cursor) return undefined;
  const cursorAt = sql`${cursor.at}::timestamptz`;
  // At the cursor's millisecond: a message after a message has a lower id; every plan follows a message.
  const sameAtAfter = kind === cursor.kind ? sql`${id} < ${cursor.id}` : kind === 'plan' ? sql`true` : sql`false`;
  return sql`(${shownAt(at)} < ${cursorAt} or (${shownAt(at)} = ${cursorAt} and ${sameAtAfter}))`;
}

/**
 * What waits for the caller (docs/decisions/messages.md § Inbox), across the cases they reach (the
 * lists' reach): the other side's messages past the caller's read mark, and the plans whose
 * newest version waits for the caller: a doctor's approval, or for staff a doctor's change
 * request the lab has not answered with a new version. Newest first, `maxInboxItems` a page
 * (`after` the previous page's last item); the counts are of all of them.
 */
export async function getInbox(db: Database, actor: SignedInUser, query: InboxQuery): Promise<InboxAnswer> {
  const isDoctorCaller = isDoctorSide(actor);
  const reach = visibleCasesCondition(actor);
  const cursor = query.after === undefined ? undefined : parseCursor(query.after);
  const messagesWaiting = and(unreadBy(actor), reach);
  // One more than a page of each: if the merged list is longer than a page, there is a next one.
  const messages = await db
    .select({
      itemId: caseMessages.messageId,
      caseId: cases.caseId,
      trackingNo: cases.trackingNo,
      patientName,
      at: isoTimestamp(caseMessages.createdAt),
      excerpt: sql<string>`left(${caseMessages.body}, ${inboxExcerptLength})`,
      total: totalRows,
    })
    .from(caseMessages)
    .innerJoin(cases, eq(cases.caseId, caseMessages.caseId))
    .leftJoin(caseMessageReads, readMarkOf(actor))
    .where(and(messagesWaiting, afterCursor(cursor, 'message', caseMessages.createdAt, caseMessages.messageId)))
    .orderBy(desc(shownAt(caseMessages.createdAt)), desc(caseMessages.messageId))
    .limit(maxInboxItems + 1);
  // cases.plan_state copies the newest version's state (indexed); that version is the item.
  const waiting = isDoctorCaller ? 'awaiting_approval' : 'changes_requested';
  const planAt = isDoctorCaller ? treatmentPlans.createdAt : treatmentPlans.decidedAt;
  const plansWaiting = and(eq(cases.planState, waiting), reach);
  const planVersion = and(eq(treatmentPlans.caseId, cases.caseId), eq(treatmentPlans.state, waiting));
  const plans = await db
    .select({
      itemId: treatmentPlans.planId,
      caseId: cases.caseId,
      trackingNo: cases.trackingNo,
      patientName,
      at: isoTimestamp(planAt),
      excerpt: sql<string>`left(coalesce(${treatmentPlans.comment}, ''), ${inboxExcerptLength})`,
      version: treatmentPlans.version,
      total: totalRows,
    })
    .from(cases)
    .innerJoin(treatmentPlans, planVersion)
    .where(and(plansWaiting, afterCursor(cursor, 'plan', planAt, treatmentPlans.planId)))
    .orderBy(desc(shownAt(planAt)), desc(treatmentPlans.planId))
    .limit(maxInboxItems + 1);
  const items: InboxItem[] = [
    ...messages.map(({ total: _total, ...row }) => ({ ...row, kind: 'message' as const, version: null })),
    ...plans.map(({ total: _total, ...row }) => ({ ...row, kind: 'plan' as const })),
  ];
  // The same ISO form throughout (UTC, milliseconds): text order is time order.
  const kindOrder: Record<InboxItemKind, number> = { message: 0, plan: 1 };
  items.sort((a, b) =>
    a.at !== b.at ? (a.at < b.at ? 1 : -1) : kindOrder[a.kind] - kindOrder[b.kind] || b.itemId - a.itemId,
  );
  const page = items.slice(0, maxInboxItems);
  const counts = cursor
    ? await countAll(db, messagesWaiting, plansWaiting, planVersion, actor)
    : { unreadMessages: messages[0]?.total ?? 0, plansAwaiting: plans[0]?.total ?? 0 };
  return { items: page, next: items.length > maxInboxItems ? cursorOf(page.at(-1)!) : null, ...counts };
}

/** A later page's counts: the page's own windows count only what follows its cursor. */
async function countAll(
  db: Database,
  messagesWaiting: SQL | undefined,
  plansWaiting: SQL | undefined,
  planVersion: SQL | undefined,
  actor: SignedInUser,
): Promise<Pick<InboxAnswer, 'unreadMessages' | 'plansAwaiting'>> {
  const [messages] = await db
    .select({ n: count() })
    .from(caseMessages)
    .innerJoin(cases, eq(cases.caseId, caseMessages.caseId))
    .leftJoin(caseMessageReads, readMarkOf(actor))
    .where(messagesWaiting);
  const [plans] = await db
    .select({ n: count() })
    .from(cases)
    .innerJoin(treatmentPlans, planVersion)
    .where(plansWaiting);
  return { unreadMessages: messages?.n ?? 0, plansAwaiting: plans?.n ?? 0 };
}
