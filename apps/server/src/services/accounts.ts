import { ADMIN_ROLE_ID } from '@portal/contract';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { conflict, isUniqueViolation } from '../lib/errors.ts';
import type { SmallFile } from '../lib/multipart-form.ts';
import { deleteKeys } from '../storage/delete-keys.ts';
import type { Storage } from '../storage/storage.ts';
import { pictureKeys, storeProfilePicture } from './profile-pictures.ts';

/** What users and doctors share: the account row, its password and its picture. */

export const usernameTaken = () => conflict('Username is already taken', { username: 'Username is already taken' });

/**
 * Refuses a username a live account holds, as the unique index would: a cheap read before
 * the password's argon2 hash, so a taken name costs no hashing. The index still decides a race.
 */
export async function assertUsernameFree(db: Database | Transaction, username: string): Promise<void> {
  const [taken] = await db
    .select({ userId: users.userId })
    .from(users)
    .where(and(sql`lower(${users.userName}) = lower(${username})`, isNull(users.deletedAt)));
  if (taken) throw usernameTaken();
}

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
