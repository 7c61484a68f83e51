import { randomBytes } from 'node:crypto';
import {
  ADMIN_ROLE_ID,
  DOCTOR_ROLE_ID,
  type AccountListQuery,
  type User,
  type UserAddRequest,
  type UserEditRequest,
} from '@portal/contract';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { assertHoldsPages, assertMayTouchAdministrator, isAdministrator, type SignedInUser } from '../auth/policy.ts';
import type { PasswordHasher } from '../auth/passwords.ts';
import type { Database, Transaction } from '../db/client.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';
import { liveRoleId, roles, users } from '../db/schema.ts';
import { badRequest, conflict, forbidden, notFound } from '../lib/errors.ts';
import type { SmallFile } from '../lib/multipart-form.ts';
import { deleteKeys } from '../storage/delete-keys.ts';
import type { Storage } from '../storage/storage.ts';
import type { MailOutbox } from '../mail/outbox.ts';
import {
  assertOtherAdministratorRemains,
  checkOwnAccountChange,
  enqueueChangeNotice,
  inAccountTransaction,
  personName,
  replacePicture,
  staffChangeNotice,
} from './accounts.ts';
import { accountOrder, accountPage, accountSearch } from './account-list.ts';
import { createResetLink, linkLifetimeWords, useUpResetLinks } from './password-reset.ts';
import { rolePageUrls } from './permissions.ts';
import { roleExists } from './roles.ts';

const userColumns = {
  UserId: users.userId,
  UserName: users.userName,
  FirstName: users.firstName,
  LastName: users.lastName,
  Email: users.email,
  MobileNo: users.mobileNo,
  RoleId: liveRoleId,
  RoleName: roles.roleName,
  profilePicKey: users.profilePic,
  createdAt: isoTimestamp(users.createdAt),
  userType: users.userType,
};

/** A user as listed, with the picture's storage key where the answer has its address. */
export type WebUserRow = Omit<User, 'ProfilePic'> & { profilePicKey: string | null };

/** One page of the Web users (staff and administrators), oldest first unless sorted, and how many match. */
export async function listWebUsers(
  db: Database,
  query: AccountListQuery,
): Promise<{ rows: WebUserRow[]; total: number }> {
  const where = and(eq(users.userType, 'Web'), isNull(users.deletedAt), accountSearch(query.search));
  const { limit, offset } = accountPage(query);
  const [rows, [counted]] = await Promise.all([
    db
      .select(userColumns)
      .from(users)
      .leftJoin(roles, eq(roles.roleId, users.roleId))
      .where(where)
      .orderBy(...accountOrder(query.sort))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return { rows, total: counted!.total };
}

async function assertWebRole(tx: Transaction, roleId: number) {
  if (roleId === DOCTOR_ROLE_ID) throw badRequest('The Doctor role is for doctors', { roleId: 'Role is not valid' });
  if (!(await roleExists(tx, roleId))) throw badRequest('Role is not valid', { roleId: 'Role is not valid' });
}

/** Only a role whose pages the caller has can be given (docs/decisions/access.md § Roles). */
async function assertMayHandOutRole(tx: Transaction, actor: SignedInUser, roleId: number) {
  if (isAdministrator(actor)) return;
  assertHoldsPages(actor, await rolePageUrls(tx, roleId), 'roleWithPagesNotHeld');
}

async function findWebUser(tx: Transaction, userId: number) {
  const [row] = await tx
    .select({ roleId: liveRoleId })
    .from(users)
    .where(and(eq(users.userId, userId), eq(users.userType, 'Web'), isNull(users.deletedAt)));
  if (!row) throw notFound('User');
  return row;
}

/**
 * Adds a Web user. Without a password (the Users screen sends none) the account starts with a
 * password nobody knows and the user is mailed an invitation link, made in the same
 * transaction, to set their own (docs/decisions/accounts.md § Lab staff invited by e-mail).
 */
export async function createWebUser(
  deps: {
    db: Database;
    storage: Storage;
    outbox: MailOutbox;
    passwords: PasswordHasher;
    config: { publicUrl: string };
  },
  actor: SignedInUser,
  input: UserAddRequest,
  picture?: SmallFile,
): Promise<{ userId: number; isInvited: boolean }> {
  assertMayTouchAdministrator(actor, [input.roleId]);
  const { db, storage } = deps;
  const isInvited = input.password === '';
  const passwordHash = isInvited
    ? await deps.passwords.hash(randomBytes(32).toString('base64url'))
    : await deps.passwords.hashNew(input.password);
  const { result } = await inAccountTransaction(db, storage, async (tx, written) => {
    await assertWebRole(tx, input.roleId);
    await assertMayHandOutRole(tx, actor, input.roleId);
    const [created] = await tx
      .insert(users)
      .values({
        userName: input.username,
        firstName: input.firstname,
        lastName: input.lastname,
        email: input.email,
        mobileNo: input.mobileNo,
        roleId: input.roleId,
        userType: 'Web',
        locale: input.locale,
        passwordHash,
      })
      .returning({ userId: users.userId });
    await replacePicture(tx, storage, created!.userId, { picture }, written);
    if (isInvited) {
      const resetUrl = await createResetLink(tx, created!.userId, deps.config.publicUrl, { invitedBy: actor.userId });
      const [inviter] = await tx
        .select({ firstName: users.firstName, lastName: users.lastName })
        .from(users)
        .where(eq(users.userId, actor.userId));
      await deps.outbox.enqueue(tx, {
        to: input.email,
        template: 'staffInvitation',
        variables: {
          name: personName({ firstName: input.firstname, lastName: input.lastname }),
          inviterName: inviter ? personName(inviter) : 'The lab',
          username: input.username,
          resetUrl,
          validFor: linkLifetimeWords.invitation,
        },
      });
    }
    return created!.userId;
  });
  if (isInvited) deps.outbox.kick();
  return { userId: result, isInvited };
}

export async function updateWebUser(
  deps: { db: Database; storage: Storage; outbox: MailOutbox; passwords: PasswordHasher },
  actor: SignedInUser,
  userId: number,
  input: UserEditRequest,
  change: { picture?: SmallFile; remove?: boolean },
): Promise<void> {
  const { db, storage } = deps;
  const passwordHash = input.password ? await deps.passwords.hashNew(input.password) : undefined;
  const { result } = await inAccountTransaction(db, storage, async (tx, written) => {
    const current = await findWebUser(tx, userId);
    assertMayTouchAdministrator(actor, [current.roleId, input.roleId]);
    await assertWebRole(tx, input.roleId);
    if (actor.userId === userId && input.roleId !== current.roleId && !isAdministrator(actor)) {
      throw forbidden('You cannot change your own role');
    }
    // Neither a stronger account's password nor a stronger role: both would raise the caller.
    if (!isAdministrator(actor)) {
      assertHoldsPages(actor, await rolePageUrls(tx, current.roleId), 'editUserWithPagesNotHeld');
    }
    await assertMayHandOutRole(tx, actor, input.roleId);
    if (current.roleId === ADMIN_ROLE_ID && input.roleId !== ADMIN_ROLE_ID) {
      await assertOtherAdministratorRemains(tx, userId);
    }
    // Checked last: a change refused for its role is refused as such, whatever the password.
    const notice =
      actor.userId === userId
        ? await checkOwnAccountChange(tx, deps.passwords, userId, input)
        : await staffChangeNotice(tx, userId, input);
    await tx
      .update(users)
      .set({
        userName: input.username,
        firstName: input.firstname,
        lastName: input.lastname,
        email: input.email,
        mobileNo: input.mobileNo,
        roleId: input.roleId,
        ...(passwordHash ? { passwordHash, tokenVersion: sql`${users.tokenVersion} + 1` } : {}),
      })
      .where(eq(users.userId, userId));
    // A link mailed for the old password or to the old address dies with them.
    if (notice) await useUpResetLinks(tx, userId);
    await enqueueChangeNotice(tx, deps.outbox, notice);
    return { notice, replaced: await replacePicture(tx, storage, userId, change, written) };
  });
  await deleteKeys(storage, result.replaced);
  if (result.notice) deps.outbox.kick();
}

/** The row stays (it may have cases and history); it disappears from lists and its tokens stop. */
export async function deleteWebUser(db: Database, actor: SignedInUser, userId: number): Promise<void> {
  if (actor.userId === userId) throw conflict('You cannot delete your own account');
  await db.transaction(async (tx) => {
    const current = await findWebUser(tx, userId);
    assertMayTouchAdministrator(actor, [current.roleId]);
    if (current.roleId === ADMIN_ROLE_ID) await assertOtherAdministratorRemains(tx, userId);
    await tx
      .update(users)
      .set({ deletedAt: sql`now()`, tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.userId, userId));
  });
}
