import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { passkeys, secondStepFailures, secondStepLocks, totpFactors, users } from '../db/schema.ts';
import type { MailOutbox } from '../mail/outbox.ts';
import { zonedTimeText } from '../lib/zoned-time.ts';
import { personName } from './accounts.ts';
import { readLabSettings } from './lab-settings.ts';

/**
 * The second step's bound per account, whatever the addresses (docs/decisions/second-step-lock-and-enrolment.md):
 * the per-address and 15-minute counters of throttle.ts still let about 9,600 guesses a day
 * through from a few addresses; this lets 10.
 */
export const secondStepLockPolicy = { failures: 10, hours: 24 } as const;

const day = sql`make_interval(hours => ${secondStepLockPolicy.hours})`;

/** "2026-12-06 10:43 UTC": when a lock ends, for the message and the mail. */
export const lockEndText = (until: Date) => `${until.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * When the user's second step unlocks, or null when it is not locked. A factor set up after
 * the lock began (after an administrator's reset) is not locked: the guesses were at the old one.
 */
export async function findSecondStepLock(db: Database, userId: number): Promise<Date | null> {
  const [lock] = await db
    .select({ lockedUntil: secondStepLocks.lockedUntil })
    .from(secondStepLocks)
    .where(
      and(
        eq(secondStepLocks.userId, userId),
        gt(secondStepLocks.lockedUntil, sql`now()`),
        sql`not exists (select 1 from ${totpFactors} where ${totpFactors.userId} = ${userId} and ${totpFactors.confirmedAt} > ${secondStepLocks.lockedAt})`,
        sql`not exists (select 1 from ${passkeys} where ${passkeys.userId} = ${userId} and ${passkeys.createdAt} > ${secondStepLocks.lockedAt})`,
      ),
    );
  return lock?.lockedUntil ?? null;
}

/**
 * Counts one wrong answer. The one that reaches the bound locks the account for a day and
 * mails its owner; of answers racing past the bound, only the one whose statement takes the
 * lock row does, so the owner hears once. Answers the lock's end when this answer locked it.
 */
export async function countSecondStepFailure(
  deps: { db: Database; outbox: MailOutbox },
  userId: number,
): Promise<Date | null> {
  const { db } = deps;
  // What is older than the window counts no more.
  await db
    .delete(secondStepFailures)
    .where(and(eq(secondStepFailures.userId, userId), lte(secondStepFailures.failedAt, sql`now() - ${day}`)));
  await db.insert(secondStepFailures).values({ userId });
  const [counted] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(secondStepFailures)
    .where(and(eq(secondStepFailures.userId, userId), gt(secondStepFailures.failedAt, sql`now() - ${day}`)));
  if ((counted?.count ?? 0) < secondStepLockPolicy.failures) return null;
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .insert(secondStepLocks)
      .values({ userId, lockedUntil: sql`now() + ${day}` as unknown as Date })
      .onConflictDoUpdate({
        target: secondStepLocks.userId,
        set: { lockedAt: sql`now()`, lockedUntil: sql`now() + ${day}` },
        setWhere: lte(secondStepLocks.lockedUntil, sql`now()`),
      })
      .returning({ lockedUntil: secondStepLocks.lockedUntil });
    if (!locked) return null;
    // The lock took these: after it the count starts again.
    await tx.delete(secondStepFailures).where(eq(secondStepFailures.userId, userId));
    const [owner] = await tx
      .select({ email: users.email, firstName: users.firstName, lastName: users.lastName, timeZone: users.timeZone })
      .from(users)
      .where(eq(users.userId, userId));
    if (owner?.email) {
      // In the owner's time zone, or the lab's when they have chosen none.
      const timeZone = owner.timeZone ?? (await readLabSettings(tx)).timeZone;
      await deps.outbox.enqueue(tx, {
        to: owner.email,
        userId,
        template: 'secondStepLocked',
        variables: {
          name: personName(owner),
          failures: String(secondStepLockPolicy.failures),
          lockedUntil: zonedTimeText(locked.lockedUntil, timeZone),
          // The instant and its zone, which another language writes its own way (mail/templates.ts).
          lockedUntilAt: locked.lockedUntil.toISOString(),
          timeZone,
        },
      });
    }
    return locked.lockedUntil;
  });
}

/** A right answer: the owner's own mistypes before it count no more. */
export async function forgiveSecondStepFailures(db: Database, userId: number): Promise<void> {
  await db.delete(secondStepFailures).where(eq(secondStepFailures.userId, userId));
}
