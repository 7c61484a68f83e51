import { ADMIN_ROLE_ID, DOCTOR_ROLE_ID, type Role, type RoleRequest } from '@portal/contract';
import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { roles, users } from '../db/schema.ts';
import { coded, conflict, isUniqueViolation, notFound } from '../lib/errors.ts';

const systemRoles = new Set([ADMIN_ROLE_ID, DOCTOR_ROLE_ID]);
const duplicateName = () =>
  conflict('A role with this name already exists', { roleName: 'A role with this name already exists' });

/** The words the portal has always used, with how many live users hold the role. */
const roleHeld = (count: number) =>
  count === 1 ? coded(409, 'roleAssignedToOneUser', {}) : coded(409, 'roleAssignedToUsers', { count });

const roleColumns = {
  RoleId: roles.roleId,
  RoleName: roles.roleName,
  Description: roles.description,
  RequiresSecondFactor: roles.requiresSecondFactor,
};

export function listRoles(db: Database): Promise<Role[]> {
  return db.select(roleColumns).from(roles).orderBy(asc(roles.roleId));
}

export async function createRole(db: Database, input: RoleRequest): Promise<Role> {
  try {
    const [created] = await db
      .insert(roles)
      .values({ roleName: input.roleName, description: input.description })
      .returning(roleColumns);
    return created!;
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName();
    throw error;
  }
}

const builtInRoleRenamed = 'This role is built in and cannot be renamed';

/**
 * The built-in roles (Administrator -1, Doctor 19) keep their names: the menu, the seeds and
 * self-registration mean them, and staff must not be misled about who holds which (issue 20).
 * Their description may change.
 */
export async function updateRole(db: Database, roleId: number, input: RoleRequest): Promise<void> {
  try {
    const updated = await db
      .update(roles)
      .set({ roleName: input.roleName, description: input.description })
      .where(and(eq(roles.roleId, roleId), systemRoles.has(roleId) ? eq(roles.roleName, input.roleName) : undefined))
      .returning({ roleId: roles.roleId });
    if (updated.length === 0) {
      if (systemRoles.has(roleId)) throw conflict(builtInRoleRenamed, { roleName: builtInRoleRenamed });
      throw notFound('Role');
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName();
    throw error;
  }
}

/**
 * The administrator's switch: this role's users sign in with a second factor; those without
 * one enrol at their next request, sessions already open included (plugins/auth.ts).
 */
export async function setRoleSecondFactor(db: Database, roleId: number, required: boolean): Promise<void> {
  const updated = await db
    .update(roles)
    .set({ requiresSecondFactor: required })
    .where(eq(roles.roleId, roleId))
    .returning({ roleId: roles.roleId });
  if (updated.length === 0) throw notFound('Role');
}

/**
 * System roles and roles held by a live user stay; the message says how many hold it.
 * Deleted users do not hold a role hostage: they let go of it (their role becomes null) and
 * the role goes (docs/decisions/access.md § Roles). The row is locked first, so a user or
 * permission being given this role meanwhile (see roleExists) either finishes before the
 * count or finds the role gone.
 */
export async function deleteRole(db: Database, roleId: number): Promise<void> {
  if (systemRoles.has(roleId)) throw conflict('This role is built in and cannot be deleted');
  await db.transaction(async (tx) => {
    const [role] = await tx.select({ roleId: roles.roleId }).from(roles).where(eq(roles.roleId, roleId)).for('update');
    if (!role) throw notFound('Role');
    const [holders] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(users)
      .where(and(eq(users.roleId, roleId), isNull(users.deletedAt)));
    const count = holders?.count ?? 0;
    if (count > 0) throw roleHeld(count);
    await tx
      .update(users)
      .set({ roleId: null })
      .where(and(eq(users.roleId, roleId), isNotNull(users.deletedAt)));
    await tx.delete(roles).where(eq(roles.roleId, roleId));
  });
}

/** Whether the role exists; inside a transaction it also cannot be deleted until that ends. */
export async function roleExists(db: Pick<Database, 'select'>, roleId: number): Promise<boolean> {
  // Forms send ids as free text; one beyond the integer column is no role (and PostgreSQL would raise).
  if (!Number.isSafeInteger(roleId) || roleId < -2147483648 || roleId > 2147483647) return false;
  const [row] = await db.select({ roleId: roles.roleId }).from(roles).where(eq(roles.roleId, roleId)).for('key share');
  return row !== undefined;
}
