import { ADMIN_ROLE_ID, pages as pageList, type MenuItem, type RolePermission } from '@portal/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import { assertHoldsPages, assertNotOwnRole, type SignedInUser } from '../auth/policy.ts';
import type { Database } from '../db/client.ts';
import { pages, rolePermissions } from '../db/schema.ts';
import { badRequest, notFound } from '../lib/errors.ts';
import { roleExists } from './roles.ts';

/** The pages a role may open; the administrator's menu is every page. */
export async function getMenu(db: Database, roleId: number): Promise<MenuItem[]> {
  if (roleId === ADMIN_ROLE_ID) return pageList.map((page) => ({ ...page }));
  if (!(await roleExists(db, roleId))) throw notFound('Role');
  return db
    .select({ PageId: pages.pageId, PageName: pages.pageName, PageUrl: pages.pageUrl })
    .from(rolePermissions)
    .innerJoin(pages, eq(pages.pageId, rolePermissions.pageId))
    .where(eq(rolePermissions.roleId, roleId))
    .orderBy(asc(pages.pageId));
}

/** The page addresses (`/users`, ...) a role has; the administrator's are every page. */
export async function rolePageUrls(db: Pick<Database, 'select'>, roleId: number): Promise<string[]> {
  if (roleId === ADMIN_ROLE_ID) return pageList.map((page) => page.PageUrl);
  const rows = await db
    .select({ pageUrl: pages.pageUrl })
    .from(rolePermissions)
    .innerJoin(pages, eq(pages.pageId, rolePermissions.pageId))
    .where(eq(rolePermissions.roleId, roleId));
  return rows.map((row) => row.pageUrl);
}

/** Every page with whether the role has it; the administrator has them all. */
export async function getRolePermissions(db: Database, roleId: number): Promise<RolePermission[]> {
  if (roleId === ADMIN_ROLE_ID)
    return pageList.map((page) => ({ PageId: page.PageId, PageName: page.PageName, HasAccess: true }));
  if (!(await roleExists(db, roleId))) throw notFound('Role');
  // A join, not a correlated subquery: Drizzle leaves columns unqualified in single-table selects.
  return db
    .select({
      PageId: pages.pageId,
      PageName: pages.pageName,
      HasAccess: sql<boolean>`${rolePermissions.roleId} is not null`,
    })
    .from(pages)
    .leftJoin(rolePermissions, and(eq(rolePermissions.pageId, pages.pageId), eq(rolePermissions.roleId, roleId)))
    .orderBy(asc(pages.pageId));
}

async function assertRoleAndPage(db: Pick<Database, 'select'>, actor: SignedInUser, roleId: number, pageId: number) {
  if (roleId === ADMIN_ROLE_ID) throw badRequest('The administrator always has every page');
  if (!(await roleExists(db, roleId))) throw notFound('Role');
  const [page] = await db
    .select({ pageId: pages.pageId, pageUrl: pages.pageUrl })
    .from(pages)
    .where(eq(pages.pageId, pageId));
  if (!page) throw notFound('Page');
  assertNotOwnRole(actor, roleId, "You cannot change your own role's pages");
  return page;
}

/**
 * In one transaction with the check, so a role deleted meanwhile gives 404, not a foreign-key
 * error. Only a page the caller has can be granted (docs/decisions/access.md § Roles).
 */
export async function grantPage(db: Database, actor: SignedInUser, roleId: number, pageId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const page = await assertRoleAndPage(tx, actor, roleId, pageId);
    assertHoldsPages(actor, [page.pageUrl], 'grantPagesNotHeld');
    await tx.insert(rolePermissions).values({ roleId, pageId }).onConflictDoNothing();
  });
}

export async function revokePage(db: Database, actor: SignedInUser, roleId: number, pageId: number): Promise<void> {
  await assertRoleAndPage(db, actor, roleId, pageId);
  await db.delete(rolePermissions).where(and(eq(rolePermissions.roleId, roleId), eq(rolePermissions.pageId, pageId)));
}
