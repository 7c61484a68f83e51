import { caseOrderMessages, type CaseOrder, type CaseOrderType } from '@portal/contract';
import { and, asc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { canOrderFrom, caseOwnerScope, type SignedInUser } from '../../auth/policy.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { isoTimestamp } from '../../db/iso-timestamp.ts';
import { cases, users } from '../../db/schema.ts';
import { badRequest } from '../../lib/errors.ts';
import { ownedBy } from './case-access.ts';
import { fullNameOf } from '../../db/user-names.ts';

/**
 * The parent of a new order must be a case the caller may order from, and the order is for
 * the parent's doctor (docs/decisions/cases.md § Orders from a case). An unknown parent and another
 * doctor's answer alike, so the answer tells nothing of other doctors' cases.
 */
export async function assertOrderParent(
  tx: Transaction,
  actor: SignedInUser,
  parentCaseId: number,
  doctorUserId: number,
): Promise<void> {
  const [parent] = await tx
    .select({ doctorUserId: cases.doctorUserId })
    .from(cases)
    .where(eq(cases.caseId, parentCaseId));
  if (!parent || !canOrderFrom(actor, parent.doctorUserId)) {
    throw badRequest(caseOrderMessages.parentInvalid, { parentCaseId: caseOrderMessages.parentInvalid });
  }
  if (parent.doctorUserId !== doctorUserId) {
    throw badRequest(caseOrderMessages.parentDoctor, { userId: caseOrderMessages.parentDoctor });
  }
}

const parentCases = alias(cases, 'parent_cases');

/** The case a case was ordered from: its id, tracking number and the order type; null for a first case. */
export async function findOrderParent(
  db: Database,
  caseId: number,
): Promise<{ caseId: number; trackingNo: string; orderType: CaseOrderType } | null> {
  const [found] = await db
    .select({ caseId: parentCases.caseId, trackingNo: parentCases.trackingNo, orderType: cases.orderType })
    .from(cases)
    .innerJoin(parentCases, eq(parentCases.caseId, cases.parentCaseId))
    .where(eq(cases.caseId, caseId));
  return found?.orderType ? { caseId: found.caseId, trackingNo: found.trackingNo, orderType: found.orderType } : null;
}

/** The orders made from a case that the caller may see, oldest first, with who made each (for the timeline). */
export async function listCaseOrders(
  db: Database,
  actor: SignedInUser,
  caseId: number,
): Promise<(CaseOrder & { by: number; byName: string })[]> {
  const doctorUserIds = caseOwnerScope(actor, 0);
  const rows = await db
    .select({
      caseId: cases.caseId,
      trackingNo: cases.trackingNo,
      orderType: cases.orderType,
      createdAt: isoTimestamp(cases.createdAt),
      by: cases.createdBy,
      byName: fullNameOf(),
    })
    .from(cases)
    .innerJoin(users, eq(users.userId, cases.createdBy))
    .where(and(eq(cases.parentCaseId, caseId), ownedBy(doctorUserIds)))
    .orderBy(asc(cases.caseId));
  return rows.flatMap(({ orderType, ...row }) => (orderType ? [{ ...row, orderType }] : []));
}
