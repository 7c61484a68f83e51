import { ADMIN_ROLE_ID, ownChangeMessages } from '@portal/contract';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../db/client.ts';
import { users } from '../db/schema.ts';
import type { PasswordHasher } from '../auth/passwords.ts';
import { AppError, badRequest, conflict, isUniqueViolation, notFound } from '../lib/errors.ts';
import type { MailOutbox } from '../mail/outbox.ts';
import type { SmallFile } from '../lib/multipart-form.ts';
import { deleteKeys } from '../storage/delete-keys.ts';
import type { Storage } from '../storage/storage.ts';
import { pictureKeys, storeProfilePicture } from './profile-pictures.ts';

/** What users and doctors share: the account row, its password and its picture. */

const usernameTaken = () => conflict('Username is already taken', { username: 'Username is already taken' });

/**
 * Refuses a username a live account holds, as the unique index would: a cheap read before
 * the password's argon2 hash, so a taken name costs no hashing. The index still decides a race.
 */
export async function assertUsernameFree(db: Database | Transaction, username: string): Promise<void> {
  if (await findUsernameOwner(db, username)) throw usernameTaken();
}

/** The live account holding a username, whatever its letter case. */
export async function findUsernameOwner(
  db: Database | Transaction,
  username: string,
): Promise<{ userName: string; email: string; firstName: string; lastName: string } | undefined> {
  const [owner] = await db
    .select({ userName: users.userName, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(and(sql`lower(${users.userName}) = lower(${username})`, isNull(users.deletedAt)));
  return owner;
}

/** A person as mail greets them: first and last name, never the username. */
export const personName = (account: { firstName: string; lastName: string }) =>
  `${account.firstName} ${account.lastName}`.trim();

/** Runs `work` in a transaction; pictures it wrote are removed again if it fails. */
export async function inAccountTransaction<T>(
  db: Database,
  storage: Storage,
  work: (tx: Transaction, written: string[]) => Promise<T>,
): Promise<{ result: T; written: string[] }> {
  const written: string[] = [];
  try {
    const result = await db.transaction((tx) => work(tx, written));
    return { result, written };
  } catch (error) {
    await deleteKeys(storage, written);
    if (isUniqueViolation(error, 'users_name_unique')) throw usernameTaken();
    throw error;
  }
}

/** Stores a new picture for the user and records it; returns the keys of the one it replaces. */
export async function replacePicture(
  tx: Transaction,
  storage: Storage,
  userId: number,
  change: { picture?: SmallFile; remove?: boolean },
  written: string[],
): Promise<string[]> {
  if (!change.picture && !change.remove) return [];
  const [current] = await tx.select({ profilePic: users.profilePic }).from(users).where(eq(users.userId, userId));
  let profilePic: string | null = null;
  if (change.picture) {
    const stored = await storeProfilePicture(storage, userId, change.picture);
    written.push(...stored.keys);
    profilePic = stored.key;
  }
  await tx.update(users).set({ profilePic }).where(eq(users.userId, userId));
  return pictureKeys(current?.profilePic ?? null);
}

/**
 * The last active administrator cannot be removed, disabled or demoted. Every administrator
 * row is locked (in id order) so two administrators removing each other at once take turns.
 */
export async function assertOtherAdministratorRemains(tx: Transaction, userId: number): Promise<void> {
  const administrators = await tx
    .select({ userId: users.userId })
    .from(users)
    .where(
      and(
        eq(users.roleId, ADMIN_ROLE_ID),
        eq(users.userType, 'Web'),
        eq(users.isActive, true),
        isNull(users.deletedAt),
      ),
    )
    .orderBy(asc(users.userId))
    .for('update');
  if (!administrators.some((administrator) => administrator.userId !== userId)) {
    throw conflict('The last administrator cannot be removed or demoted');
  }
}

/** What a change of password or e-mail tells the old address (after the change commits). */
export interface ChangeNotice {
  to: string;
  /** The person's name, which the mail greets. */
  name: string;
  changed: 'password' | 'e-mail address' | 'password and e-mail address';
  /** The account: the mail is in its language. */
  userId: number;
}

export const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The notice for a change of the account as it is now; null when neither changes. */
function noticeOf(
  userId: number,
  current: { email: string; firstName: string; lastName: string },
  input: { password: string; email: string },
): ChangeNotice | null {
  const passwordChanged = input.password !== '';
  const emailChanged = !sameEmail(current.email, input.email);
  if (!passwordChanged && !emailChanged) return null;
  const changed =
    passwordChanged && emailChanged ? 'password and e-mail address' : passwordChanged ? 'password' : 'e-mail address';
  return { to: current.email, name: personName(current), changed, userId };
}

/**
 * One's own password or e-mail changes only with the current password (a stolen session is
 * not enough to take the account over); the old address is then told. Staff editing
 * someone else are not asked. docs/decisions/sign-in-and-sessions.md § Changing one's own password or e-mail.
 */
export async function checkOwnAccountChange(
  db: Pick<Database, 'select'>,
  passwords: PasswordHasher,
  userId: number,
  input: { password: string; email: string; currentPassword: string },
): Promise<ChangeNotice | null> {
  const [current] = await db
    .select({
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      passwordHash: users.passwordHash,
    })
    .from(users)
    .where(and(eq(users.userId, userId), isNull(users.deletedAt)));
  if (!current) throw notFound('User');
  const notice = noticeOf(userId, current, input);
  if (!notice) return null;
  if (input.currentPassword === '') {
    throw badRequest(ownChangeMessages.currentPasswordRequired, {
      currentPassword: ownChangeMessages.currentPasswordRequired,
    });
  }
  if (!(await passwords.verify(current.passwordHash, input.currentPassword))) {
    throw new AppError(403, ownChangeMessages.currentPasswordWrong, {
      currentPassword: ownChangeMessages.currentPasswordWrong,
    });
  }
  return notice;
}

/**
 * Staff who set someone's password or e-mail are not asked for it, but the owner is told at
 * the address the account had: a change they did not ask for is then no silent takeover.
 */
export async function staffChangeNotice(
  db: Pick<Database, 'select'>,
  userId: number,
  input: { password: string; email: string },
): Promise<ChangeNotice | null> {
  const [current] = await db
    .select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.userId, userId));
  return current ? noticeOf(userId, current, input) : null;
}

/** Queues the notice to the old address in the change's own transaction. */
export async function enqueueChangeNotice(
  tx: Transaction,
  outbox: MailOutbox,
  notice: ChangeNotice | null,
): Promise<void> {
  if (!notice) return;
  await outbox.enqueue(tx, {
    to: notice.to,
    userId: notice.userId,
    template: 'accountChanged',
    variables: { name: notice.name, changed: notice.changed },
  });
}
