import { createHash, randomBytes } from 'node:crypto';
import { resetMessages } from '@portal/contract';
import { and, count, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { PasswordHasher } from '../auth/passwords.ts';
import type { Database, Transaction } from '../db/client.ts';
import { clinics, doctors, passwordResetTokens, users } from '../db/schema.ts';
import { fullNameOf } from '../db/user-names.ts';
import type { MailOutbox } from '../mail/outbox.ts';
import { personName } from './accounts.ts';
import { remainingFactorsOf } from './second-factor/factor-mail.ts';

/**
 * How long a link works: a reset is asked for and used at once; an invitation waits in an
 * inbox for someone who did not ask for it (docs/decisions/accounts.md § Invitation links).
 */
export const linkLifetimeMinutes = { reset: 60, invitation: 7 * 24 * 60 } as const;
/** The lifetimes in a mail's words. */
export const linkLifetimeWords = { reset: 'one hour', invitation: '7 days' } as const;
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * 256 random bits; only its hash is stored, so the link is the one copy of the token. An
 * invitation (`invitedBy` the user who invited) sets an invited account's first password:
 * it lasts days and its page welcomes rather than resets.
 */
export async function createResetLink(
  tx: Transaction | Database,
  userId: number,
  publicUrl: string,
  invitation?: { invitedBy: number },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const kind = invitation ? 'invitation' : 'reset';
  await tx.insert(passwordResetTokens).values({
    tokenHash: hashToken(token),
    userId,
    kind,
    invitedBy: invitation?.invitedBy ?? null,
    expiresAt: sql`now() + make_interval(mins => ${linkLifetimeMinutes[kind]})` as unknown as Date,
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
  return (await checkResetToken(db, token)) !== undefined;
}

/**
 * A usable link's kind; an invitation with who invited: their name and, for a doctor, their
 * clinics' names (the page says whom the person will work for). Undefined for any other token.
 */
export async function checkResetToken(
  db: Database,
  token: string,
): Promise<{ kind: 'reset' } | { kind: 'invitation'; invitedBy: string | null; clinic: string | null } | undefined> {
  const inviter = alias(users, 'inviter');
  const [row] = await db
    .select({
      kind: passwordResetTokens.kind,
      invitedBy: fullNameOf(inviter),
      clinic: sql<string | null>`(select string_agg(${clinics.clinicName}, ', ' order by ${clinics.clinicId})
        from ${clinics} join ${doctors} on ${doctors.doctorId} = ${clinics.doctorId}
        where ${doctors.userId} = ${passwordResetTokens.invitedBy} and ${clinics.deletedAt} is null)`,
    })
    .from(passwordResetTokens)
    .innerJoin(users, eq(users.userId, passwordResetTokens.userId))
    .leftJoin(inviter, eq(inviter.userId, passwordResetTokens.invitedBy))
    .where(and(usable(token), isNull(users.deletedAt)));
  if (!row) return undefined;
  return row.kind === 'invitation'
    ? { kind: 'invitation', invitedBy: row.invitedBy, clinic: row.clinic }
    : { kind: 'reset' };
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
      userId: claimed.userId,
      template: 'accountChanged',
      variables: {
        name: personName(account),
        changed: 'password',
        ...(await remainingFactorsOf(tx, claimed.userId)),
      },
    });
    return { success: true, message: resetMessages.resetSucceeded, userId: claimed.userId };
  });
  if (result.success) deps.outbox.kick();
  return result;
}

/** Links one account may be mailed from "Forgot password?" in an hour, whatever name or address asked. */
export const forgottenLinksPerAccountHour = 3;
/** Accounts one address may hold (an e-mail is not unique); past these, none more is mailed. */
const accountsPerAddress = 5;

/**
 * "Forgot password?": a reset link to each live, active account whose username or e-mail is
 * `name` (case ignored), unless it was sent `forgottenLinksPerAccountHour` links in the last
 * hour. Runs after the answer has gone (routes/auth/forgot-password.ts), so the answer and its
 * time are the same for a name that is nobody's. Answers the accounts mailed, for the log.
 */
export async function mailForgottenPasswordLinks(
  deps: { db: Database; outbox: MailOutbox; publicUrl: string },
  name: string,
): Promise<number[]> {
  const mailed = await deps.db.transaction(async (tx) => {
    const accounts = await tx
      .select({
        userId: users.userId,
        userName: users.userName,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
      })
      .from(users)
      .where(
        and(
          isNull(users.deletedAt),
          eq(users.isActive, true),
          or(sql`lower(${users.userName}) = lower(${name})`, sql`lower(${users.email}) = lower(${name})`),
        ),
      )
      .orderBy(users.userId)
      .limit(accountsPerAddress)
      .for('update');
    const sent: number[] = [];
    for (const account of accounts) {
      const [recent] = await tx
        .select({ links: count() })
        .from(passwordResetTokens)
        .where(
          and(
            eq(passwordResetTokens.userId, account.userId),
            sql`${passwordResetTokens.createdAt} > now() - interval '1 hour'`,
          ),
        );
      if ((recent?.links ?? 0) >= forgottenLinksPerAccountHour) continue;
      const resetUrl = await createResetLink(tx, account.userId, deps.publicUrl);
      await deps.outbox.enqueue(tx, {
        to: account.email,
        userId: account.userId,
        template: 'passwordForgotten',
        variables: { name: personName(account), username: account.userName, resetUrl },
      });
      sent.push(account.userId);
    }
    return sent;
  });
  if (mailed.length > 0) deps.outbox.kick();
  return mailed;
}
