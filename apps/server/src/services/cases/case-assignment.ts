import {
  ADMIN_ROLE_ID,
  caseWorkMessages,
  type CaseAssignee,
  type CaseAssigneeOption,
  type CaseDoctorOption,
} from '@portal/contract';
import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import type { SignedInUser } from '../../auth/policy.ts';
import type { Database } from '../../db/client.ts';
import { caseAssignments, cases, pages, rolePermissions, users } from '../../db/schema.ts';
import { badRequest } from '../../lib/errors.ts';
import type { VisibleCase } from './case-access.ts';
import { fullNameOf } from '../../db/user-names.ts';

/**
 * A case's technician (docs/decisions/cases.md § Assignment and internal notes): one staff user
 * with the Dashboard page, or none. Each change is a row of case_assignments, which the
 * timeline reads.
 */

const fullName = fullNameOf();

/** Active Web users who may work on cases: the administrator, and roles with the Dashboard page. */
const isAssignable = and(
  eq(users.userType, 'Web'),
  eq(users.isActive, true),
  isNull(users.deletedAt),
  or(
    eq(users.roleId, ADMIN_ROLE_ID),
    sql`exists (select 1 from ${rolePermissions} join ${pages} on ${pages.pageId} = ${rolePermissions.pageId}
      where ${rolePermissions.roleId} = ${users.roleId} and ${pages.pageUrl} = '/dashboard')`,
  ),
);

/** Who a case can be assigned to, by name. */
export function listAssignees(db: Database): Promise<CaseAssigneeOption[]> {
  return db
    .select({ userId: users.userId, name: fullName, userName: users.userName })
    .from(users)
    .where(isAssignable)
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.userId));
}

/**
 * Assigns the case to `userId`, or unassigns it (null). Assigning it to whom it already has
 * changes nothing and adds no timeline entry. Answers who has it, and whether it changed.
 */
export async function assignCase(
  db: Database,
  actor: SignedInUser,
  found: VisibleCase,
  userId: number | null,
): Promise<{ assignee: CaseAssignee | null; changedAt: string | null }> {
  return db.transaction(async (tx) => {
    let assignee: CaseAssignee | null = null;
    if (userId !== null) {
      [assignee = null] = await tx
        .select({ userId: users.userId, name: fullName })
        .from(users)
        .where(and(eq(users.userId, userId), isAssignable));
      if (!assignee) throw badRequest(caseWorkMessages.assigneeNotStaff, { userId: caseWorkMessages.assigneeNotStaff });
    }
    // The row is locked: two assignments at once are one after the other, each on the timeline.
    const [current] = await tx
      .select({ assigneeUserId: cases.assigneeUserId })
      .from(cases)
      .where(eq(cases.caseId, found.caseId))
      .for('update');
    if (current?.assigneeUserId === userId) return { assignee, changedAt: null };
    await tx.update(cases).set({ assigneeUserId: userId }).where(eq(cases.caseId, found.caseId));
    const [row] = await tx
      .insert(caseAssignments)
      .values({ caseId: found.caseId, assigneeUserId: userId, assignedBy: actor.userId })
      .returning({ at: caseAssignments.assignedAt });
    return { assignee, changedAt: row!.at.toISOString() };
  });
}

/**
 * Doctors for the case list's Doctor filter: their names only (Dashboard staff see them on
 * every case row already; the doctor list with contact details needs its own pages). By a
 * part of the name, accents aside, at most 20; or the one `userId` names.
 */
export function findDoctorOptions(
  db: Database,
  query: { search?: string; userId?: number },
): Promise<CaseDoctorOption[]> {
  const pattern = `%${(query.search ?? '').replace(/[\\%_]/g, '\\$&')}%`;
  return db
    .select({ userId: users.userId, name: fullName })
    .from(users)
    .where(
      and(
        eq(users.userType, 'Doctor'),
        query.userId === undefined
          ? sql`portal_fold(${fullNameOf()}) like portal_fold(${pattern})`
          : eq(users.userId, query.userId),
      ),
    )
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.userId))
    .limit(20);
}
