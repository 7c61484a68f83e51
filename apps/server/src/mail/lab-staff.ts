import { ADMIN_ROLE_ID } from '@portal/contract';
import { and, eq, exists, isNull, or, sql } from 'drizzle-orm';
import type { Transaction } from '../db/client.ts';
import { pages, rolePermissions, users } from '../db/schema.ts';

/**
 * The lab, as mail reaches it (docs/decisions/mail.md § Mail for the lab): every active staff
 * user who may use the Dashboard, the administrator included. They are who see new cases
 * and doctors' messages in the portal; the configuration names no lab address (MAIL_FROM is
 * the sender).
 */
export async function findLabStaff(
  tx: Transaction,
): Promise<{ userId: number; email: string; firstName: string; lastName: string }[]> {
  const hasDashboard = exists(
    tx
      .select({ one: sql`1` })
      .from(rolePermissions)
      .innerJoin(pages, eq(pages.pageId, rolePermissions.pageId))
      .where(and(eq(rolePermissions.roleId, users.roleId), eq(pages.pageUrl, '/dashboard'))),
  );
  return tx
    .select({ userId: users.userId, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(
      and(
        eq(users.userType, 'Web'),
        eq(users.isActive, true),
        isNull(users.deletedAt),
        or(eq(users.roleId, ADMIN_ROLE_ID), hasDashboard),
      ),
    );
}
