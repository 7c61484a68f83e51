import { caseStatusLabels, type CaseHistoryEntry, type CaseStatus } from '@portal/contract';
import { asc, eq, sql } from 'drizzle-orm';
import type { SignedInUser } from '../../auth/policy.ts';
import type { Database } from '../../db/client.ts';
import { isoTimestamp } from '../../db/iso-timestamp.ts';
import { cases, caseStatusHistory, users } from '../../db/schema.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import type { MailOutbox } from '../../mail/outbox.ts';
import { findVisibleCase } from './find-cases.ts';

/**
 * Staff move a case to another status. The change, its history row (who, when, from, to)
 * and the doctor's e-mail commit together; the row is locked so concurrent changes queue.
 * Setting the status the case already has is a 409. Answers whose case it is and when the
 * change was made, for the live event the route publishes after the commit.
 */
export async function changeCaseStatus(
  deps: { db: Database; outbox: MailOutbox; publicUrl: string },
  actor: SignedInUser,
  caseId: number,
  status: CaseStatus,
): Promise<{ doctorUserId: number; at: string }> {
  const changed = await deps.db.transaction(async (tx) => {
    const [current] = await tx
      .select({ status: cases.status, trackingNo: cases.trackingNo, doctorUserId: cases.doctorUserId })
      .from(cases)
      .where(eq(cases.caseId, caseId))
      .for('update');
    if (!current) throw notFound('Case');
    if (current.status === status)
      throw conflict(`The case is already ${caseStatusLabels[status]}`, { status: 'Unchanged' });
    await tx.update(cases).set({ status }).where(eq(cases.caseId, caseId));
    const [history] = await tx
      .insert(caseStatusHistory)
      .values({ caseId, fromStatus: current.status, toStatus: status, changedBy: actor.userId })
      .returning({ changedAt: caseStatusHistory.changedAt });
    const [doctor] = await tx
      .select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .where(eq(users.userId, current.doctorUserId));
    await deps.outbox.enqueue(tx, {
      to: doctor!.email,
      template: 'caseStatus',
      variables: {
        doctorName: `${doctor!.firstName} ${doctor!.lastName}`,
        trackingNo: current.trackingNo,
        status: caseStatusLabels[status],
        caseUrl: `${deps.publicUrl}/dashboard`,
      },
    });
    return { doctorUserId: current.doctorUserId, at: history!.changedAt.toISOString() };
  });
  deps.outbox.kick();
  return changed;
}

/** Every status the case has had, oldest first; a doctor sees only their own case's. */
export async function getCaseHistory(db: Database, actor: SignedInUser, caseId: number): Promise<CaseHistoryEntry[]> {
  await findVisibleCase(db, actor, caseId);
  return db
    .select({
      FromStatus: caseStatusHistory.fromStatus,
      ToStatus: caseStatusHistory.toStatus,
      ChangedBy: caseStatusHistory.changedBy,
      ChangedByName: sql<string>`(${users.firstName} || ' ' || ${users.lastName})`,
      ChangedAt: isoTimestamp(caseStatusHistory.changedAt),
    })
    .from(caseStatusHistory)
    .innerJoin(users, eq(users.userId, caseStatusHistory.changedBy))
    .where(eq(caseStatusHistory.caseId, caseId))
    .orderBy(asc(caseStatusHistory.historyId));
}
