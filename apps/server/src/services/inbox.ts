import { inboxExcerptLength, maxInboxItems, type InboxAnswer, type InboxItem } from '@portal/contract';
import { and, desc, eq, sql } from 'drizzle-orm';
import { isDoctorSide, type SignedInUser } from '../auth/policy.ts';
import type { Database } from '../db/client.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';
import { caseMessageReads, caseMessages, cases, treatmentPlans } from '../db/schema.ts';
import { visibleCasesCondition } from './cases/case-access.ts';
import { readMarkOf, unreadBy } from './messages/unread-messages.ts';

const patientName = sql<string>`(${cases.firstName} || ' ' || ${cases.lastName})`;
/** Every row of the query before its limit: the counts beside a capped list, in the same read. */
const totalRows = sql<number>`(count(*) over ())::int`;

/**
 * What waits for the caller (docs/decisions.md § Inbox), across the cases they reach (the
 * lists' reach): the other side's messages past the caller's read mark, and the plans whose
 * newest version waits for the caller: a doctor's approval, or for staff a doctor's change
 * request the lab has not answered with a new version. Newest first, at most
 * `maxInboxItems`; the counts are of all of them.
 */
export async function getInbox(db: Database, actor: SignedInUser): Promise<InboxAnswer> {
  const isDoctorCaller = isDoctorSide(actor);
  const reach = visibleCasesCondition(actor);
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
    .where(and(unreadBy(actor), reach))
    .orderBy(desc(caseMessages.messageId))
    .limit(maxInboxItems);
  // cases.plan_state copies the newest version's state (indexed); that version is the item.
  const waiting = isDoctorCaller ? 'awaiting_approval' : 'changes_requested';
  const planAt = isDoctorCaller ? treatmentPlans.createdAt : treatmentPlans.decidedAt;
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
    .innerJoin(treatmentPlans, and(eq(treatmentPlans.caseId, cases.caseId), eq(treatmentPlans.state, waiting)))
    .where(and(eq(cases.planState, waiting), reach))
    .orderBy(desc(planAt), desc(treatmentPlans.planId))
    .limit(maxInboxItems);
  const items: InboxItem[] = [
    ...messages.map(({ total: _total, ...row }) => ({ ...row, kind: 'message' as const, version: null })),
    ...plans.map(({ total: _total, ...row }) => ({ ...row, kind: 'plan' as const })),
  ];
  // The same ISO form throughout (UTC, milliseconds): text order is time order.
  items.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  return {
    items: items.slice(0, maxInboxItems),
    unreadMessages: messages[0]?.total ?? 0,
    plansAwaiting: plans[0]?.total ?? 0,
  };
}
