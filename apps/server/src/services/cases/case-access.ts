import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { caseOwnerScope, type SignedInUser } from '../../auth/policy.ts';
import type { Database } from '../../db/client.ts';
import { cases } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';

/**
 * The access primitive of cases: which cases a caller reaches. Routes resolve the case they
 * act on through it before their handler runs (routes/records.ts), and hand services the
 * `VisibleCase` it answers: a service that takes one cannot be given a case unchecked.
 */

/** Cases of these doctors (policy.ts caseOwnerScope): null for every doctor's, an empty list for none. */
export const ownedBy = (doctorUserIds: readonly number[] | null): SQL | undefined =>
  doctorUserIds === null
    ? undefined
    : doctorUserIds.length === 0
      ? sql`false`
      : inArray(cases.doctorUserId, [...doctorUserIds]);

/**
 * The cases a caller reaches, as a condition on `cases`: for reads across cases (the inbox,
 * the mail digest), the same reach as one case's.
 */
export const visibleCasesCondition = (actor: SignedInUser) => ownedBy(caseOwnerScope(actor, 0));

declare const visible: unique symbol;

/** A case the caller may see, as findVisibleCase found it. */
export interface VisibleCase {
  caseId: number;
  doctorUserId: number;
  status: (typeof cases.$inferSelect)['status'];
  trackingNo: string;
  readonly [visible]: true;
}

/** The case if the caller may see it; another doctor's case is 404, as if it did not exist. */
export async function findVisibleCase(db: Database, actor: SignedInUser, caseId: number): Promise<VisibleCase> {
  const [found] = await db
    .select({
      caseId: cases.caseId,
      doctorUserId: cases.doctorUserId,
      status: cases.status,
      trackingNo: cases.trackingNo,
    })
    .from(cases)
    .where(and(eq(cases.caseId, caseId), visibleCasesCondition(actor)));
  if (!found) throw notFound('Case');
  return found as VisibleCase;
}
