import {
  caseStatusLabels,
  caseStatusMessages,
  isBackwardMove,
  needsApprovedPlan,
  planMessages,
  serverFieldMessages,
  type CaseHistoryEntry,
  type CaseStatusRequest,
} from '@portal/contract';
import { asc, eq, sql } from 'drizzle-orm';
import type { SignedInUser } from '../../auth/policy.ts';
import type { Database } from '../../db/client.ts';
import { isoTimestamp } from '../../db/iso-timestamp.ts';
import { cases, caseStatusHistory, users } from '../../db/schema.ts';
import { badRequest, coded, conflict, notFound } from '../../lib/errors.ts';
import { enqueueCaseMail } from '../../mail/case-mail.ts';
import type { MailOutbox } from '../../mail/outbox.ts';
import type { VisibleCase } from './case-access.ts';
import { fullNameOf } from '../../db/user-names.ts';

/** Blank texts count as absent, and are stored as null. */
const textOrNull = (value: string | undefined) => (value?.trim() ? value.trim() : null);

/**
 * The rules of a move (docs/decisions/cases.md § Case status workflow): the status it already has
 * is 409; forward may skip steps; back needs a reason; dispatched needs courier and tracking
 * number (the contract's schema checks those too, this keeps the rule with the others).
 */
function checkStatusMove(from: CaseStatusRequest['status'], change: CaseStatusRequest): void {
  const { status } = change;
  if (from === status)
    throw coded(
      409,
      'caseAlreadyInStatus',
      { status: caseStatusLabels[status] },
      { status: serverFieldMessages.unchanged },
    );
  if (isBackwardMove(from, status) && !textOrNull(change.reason)) {
    throw badRequest(caseStatusMessages.reasonRequired, { reason: caseStatusMessages.reasonRequired });
  }
  if (status === 'dispatched') {
    const fieldErrors: Record<string, string> = {};
    if (!textOrNull(change.courier)) fieldErrors.courier = caseStatusMessages.courierRequired;
    if (!textOrNull(change.trackingNumber)) fieldErrors.trackingNumber = caseStatusMessages.trackingNumberRequired;
    if (Object.keys(fieldErrors).length > 0) throw badRequest(Object.values(fieldErrors).join('; '), fieldErrors);
  }
}

/**
 * Staff move a case to another status. The change, its history row (who, when, from, to,
 * and the note, reason, courier and tracking number it carries) and the doctor's e-mail
 * commit together; the row is locked so concurrent changes queue and each is checked
 * against the status it really moves from. Answers whose case it is and when the change
 * was made, for the live event the route publishes after the commit.
 */
export async function changeCaseStatus(
  deps: { db: Database; outbox: MailOutbox; publicUrl: string },
  actor: SignedInUser,
  caseId: number,
  change: CaseStatusRequest,
): Promise<{ doctorUserId: number; at: string }> {
  const { status } = change;
  const changed = await deps.db.transaction(async (tx) => {
    const [current] = await tx
      .select({
        status: cases.status,
        trackingNo: cases.trackingNo,
        doctorUserId: cases.doctorUserId,
        planState: cases.planState,
      })
      .from(cases)
      .where(eq(cases.caseId, caseId))
      .for('update');
    if (!current) throw notFound('Case');
    checkStatusMove(current.status, change);
    // docs/decisions/plans.md § Treatment plans: nothing is made before the doctor approves the plan.
    if (needsApprovedPlan(current.status, status) && current.planState !== 'approved') {
      const message =
        status === 'dispatched' ? planMessages.dispatchNeedsApproval : caseStatusMessages.deliveryNeedsApproval;
      throw conflict(message, { status: message });
    }
    const isDispatch = status === 'dispatched';
    const courier = isDispatch ? textOrNull(change.courier) : null;
    const courierTrackingNumber = isDispatch ? textOrNull(change.trackingNumber) : null;
    // now(): the transaction's start, the same instant as the history row's changed_at.
    await tx
      .update(cases)
      .set({ status, statusChangedAt: sql`now()` })
      .where(eq(cases.caseId, caseId));
    const [history] = await tx
      .insert(caseStatusHistory)
      .values({
        caseId,
        fromStatus: current.status,
        toStatus: status,
        changedBy: actor.userId,
        note: textOrNull(change.note),
        reason: isBackwardMove(current.status, status) ? textOrNull(change.reason) : null,
        courier,
        trackingNumber: courierTrackingNumber,
      })
      .returning({ changedAt: caseStatusHistory.changedAt });
    const [doctor] = await tx
      .select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .where(eq(users.userId, current.doctorUserId));
    await enqueueCaseMail(tx, deps.outbox, {
      to: doctor!.email,
      userId: current.doctorUserId,
      caseId,
      template: 'caseStatus',
      variables: {
        doctorName: `${doctor!.firstName} ${doctor!.lastName}`,
        trackingNo: current.trackingNo,
        status: caseStatusLabels[status],
        caseUrl: `${deps.publicUrl}/cases/${caseId}`,
        ...(courier && courierTrackingNumber ? { courier, courierTrackingNumber } : {}),
      },
    });
    return { doctorUserId: current.doctorUserId, at: history!.changedAt.toISOString() };
  });
  deps.outbox.kick();
  return changed;
}

/** Every status the case has had, oldest first; a doctor sees only their own case's. */
export async function getCaseHistory(db: Database, { caseId }: VisibleCase): Promise<CaseHistoryEntry[]> {
  return db
    .select({
      FromStatus: caseStatusHistory.fromStatus,
      ToStatus: caseStatusHistory.toStatus,
      ChangedBy: caseStatusHistory.changedBy,
      ChangedByName: fullNameOf(),
      ChangedAt: isoTimestamp(caseStatusHistory.changedAt),
    })
    .from(caseStatusHistory)
    .innerJoin(users, eq(users.userId, caseStatusHistory.changedBy))
    .where(eq(caseStatusHistory.caseId, caseId))
    .orderBy(asc(caseStatusHistory.historyId));
}
