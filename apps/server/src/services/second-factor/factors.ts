import { secondFactorMessages, type MySecondFactors, type NotFoundSubject } from '@portal/contract';
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { passkeys, recoveryCodes, roles, totpFactors, users } from '../../db/schema.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { replaceRecoveryCodes } from './recovery-codes.ts';

/** What a user has and what their role asks, in one read. */
export async function secondFactorState(db: Database | Transaction, userId: number) {
  const [state] = await db
    .select({
      isRequired: sql<boolean>`coalesce(${roles.requiresSecondFactor}, false)`,
      hasTotp: sql<boolean>`exists (select 1 from ${totpFactors} where ${totpFactors.userId} = ${users.userId} and ${totpFactors.confirmedAt} is not null)`,
      passkeys: sql<number>`(select count(*)::int from ${passkeys} where ${passkeys.userId} = ${users.userId})`,
      recoveryCodesLeft: sql<number>`(select count(*)::int from ${recoveryCodes} where ${recoveryCodes.userId} = ${users.userId} and ${recoveryCodes.usedAt} is null)`,
    })
    .from(users)
    .leftJoin(roles, eq(roles.roleId, users.roleId))
    .where(eq(users.userId, userId));
  return state ?? { isRequired: false, hasTotp: false, passkeys: 0, recoveryCodesLeft: 0 };
}

export type SecondFactorState = Awaited<ReturnType<typeof secondFactorState>>;

export const factorCount = (state: SecondFactorState) => Number(state.hasTotp) + state.passkeys;

export async function listMySecondFactors(db: Database, userId: number): Promise<MySecondFactors> {
  const state = await secondFactorState(db, userId);
  const mine = await db
    .select({
      id: passkeys.passkeyId,
      name: passkeys.name,
      createdAt: passkeys.createdAt,
      lastUsedAt: passkeys.lastUsedAt,
    })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.passkeyId));
  return {
    isRequired: state.isRequired,
    hasTotp: state.hasTotp,
    recoveryCodesLeft: state.recoveryCodesLeft,
    passkeys: mine.map((passkey) => ({
      ...passkey,
      createdAt: passkey.createdAt.toISOString(),
      lastUsedAt: passkey.lastUsedAt?.toISOString() ?? null,
    })),
  };
}

/**
 * Removes one factor, unless it is the last and the user's role requires one. With the last
 * factor gone the recovery codes go too: they only ever stood in for a factor. The user's
 * row is locked, so two removals at once cannot both take the last two.
 */
async function removeFactor(
  db: Database,
  userId: number,
  remove: (tx: Transaction) => Promise<boolean>,
  what: NotFoundSubject,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.select({ userId: users.userId }).from(users).where(eq(users.userId, userId)).for('update');
    const state = await secondFactorState(tx, userId);
    const remaining = factorCount(state) - 1;
    if (!(await remove(tx))) throw notFound(what);
    if (remaining <= 0 && state.isRequired) throw conflict(secondFactorMessages.lastFactorRequired);
    if (remaining <= 0) await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  });
}

export const removeTotp = (db: Database, userId: number) =>
  removeFactor(
    db,
    userId,
    async (tx) =>
      (
        await tx
          .delete(totpFactors)
          .where(and(eq(totpFactors.userId, userId), isNotNull(totpFactors.confirmedAt)))
          .returning({ userId: totpFactors.userId })
      ).length > 0,
    'Authenticator app',
  );

/** One of the user's own passkeys; another user's is not found. */
export const removePasskey = (db: Database, userId: number, passkeyId: number) =>
  removeFactor(
    db,
    userId,
    async (tx) =>
      (
        await tx
          .delete(passkeys)
          .where(and(eq(passkeys.passkeyId, passkeyId), eq(passkeys.userId, userId)))
          .returning({ passkeyId: passkeys.passkeyId })
      ).length > 0,
    'Passkey',
  );

/** Ten new recovery codes for a user who has a factor they stand in for. */
export async function regenerateRecoveryCodes(db: Database, userId: number): Promise<string[]> {
  return db.transaction(async (tx) => {
    if (factorCount(await secondFactorState(tx, userId)) === 0) throw conflict(secondFactorMessages.noFactor);
    return replaceRecoveryCodes(tx, userId);
  });
}
