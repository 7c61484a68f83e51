import { and, eq } from 'drizzle-orm';
import { caseOwnerScope, type SignedInUser } from '../../auth/policy.ts';
import type { Database } from '../../db/client.ts';
import { cases } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';

/** The access primitive of cases: which cases a caller reaches. */

export const ownedBy = (doctorUserId: number | null) =>
  doctorUserId === null ? undefined : eq(cases.doctorUserId, doctorUserId);

/** The case if the caller may see it; another doctor's case is 404, as if it did not exist. */
export async function findVisibleCase(db: Database, actor: SignedInUser, caseId: number) {
  const [found] = await db
    .select({
      caseId: cases.caseId,
      doctorUserId: cases.doctorUserId,
      status: cases.status,
      trackingNo: cases.trackingNo,
    })
    .from(cases)
    .where(and(eq(cases.caseId, caseId), ownedBy(caseOwnerScope(actor, 0))));
  if (!found) throw notFound('Case');
  return found;
}
