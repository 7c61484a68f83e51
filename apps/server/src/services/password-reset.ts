import { createHash, randomBytes } from 'node:crypto';
import { resetMessages } from '@portal/contract';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { PasswordHasher } from '../auth/passwords.ts';
import type { Database, Transaction } from '../db/client.ts';
import { passwordResetTokens, users } from '../db/schema.ts';
import type { MailOutbox } from '../mail/outbox.ts';
import { personName } from './accounts.ts';
import { remainingFactorsOf } from './second-factor/factor-mail.ts';

const validForMinutes = 60;
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** 256 random bits; only its hash is stored, so the link is the one copy of the token. */
export async function createResetLink(tx: Transaction | Database, userId: number, publicUrl: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await tx.insert(passwordResetTokens).values({
    tokenHash: hashToken(token),
    userId,
    expiresAt: sql`now() + make_interval(mins => ${validForMinutes})` as unknown as Date,
  });
  return `${publicUrl}/reset-password?token=${token}`;
}

const usable = (token: string) =>
  and(
    eq(passwordResetTokens.tokenHash, hashToken(token)),
    isNull(passwordResetTokens.usedAt),
    gt(passwordResetTokens.expiresAt, sql`now()`),
  );

/**
 * Ends every open link of the user: called wherever their password is set, their e-mail
 * changes or they are deactivated, so no link outlives the credentials it was mailed for.
 */
export async function useUpResetLinks(tx: Transaction | Database, userId: number): Promise<void> {
  await tx
    .update(passwordResetTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}

export async function isResetTokenValid(db: Database, token: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: passwordResetTokens.userId })
    .from(passwordResetTokens)
    .innerJoin(users, eq(users.userId, passwordResetTokens.userId))
    .where(and(usable(token), isNull(users.deletedAt)));
  return row !== undefined;
}

/**
 * Sets the password once per token: the token and every other open token of the user
 * are used up, and tokens issued before stop working.
 */
export async function resetPassword(
  deps: { db: Database; outbox: MailOutbox; passwords: PasswordHasher },
  token: string,
  newPassword: string,
): Promise<{ success: boolean; message: string; userId?: number }> {
  const { db } = deps;
  // A bogus or used token costs one indexed read, not an argon2 hash; the claim below still decides.
  if (!(await isResetTokenValid(db, token))) return { success: false, message: resetMessages.linkInvalid };
  const passwordHash = await deps.passwords.hashNew(newPassword, 'newPassword');
  const result = await db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: sql`now()` })
      .where(usable(token))
      .returning({ userId: passwordResetTokens.userId });
    if (!claimed) return { success: false, message: resetMessages.linkInvalid };
    const [account] = await tx
      .update(users)
      .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(and(eq(users.userId, claimed.userId), isNull(users.deletedAt)))
      .returning({ userId: users.userId, email: users.email, firstName: users.firstName, lastName: users.lastName });
    if (!account) return { success: false, message: resetMessages.linkInvalid };
    await useUpResetLinks(tx, claimed.userId);
    // The owner hears of every new password, this one too: a link read by someone else shows.
    // The mail lists the second factors that still sign in: one an intruder added outlives the
    // new password (docs/decisions/second-factor-changes.md).
    await deps.outbox.enqueue(tx, {
      to: account.email,
      template: 'accountChanged',
      variables: {
        name: personName(account),
        changed: 'password',
        factors: await remainingFactorsOf(tx, claimed.userId),
      },
    });
    return { success: true, message: resetMessages.resetSucceeded, userId: claimed.userId };
  });
  if (result.success) deps.outbox.kick();
  return result;
}
