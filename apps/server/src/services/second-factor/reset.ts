import { and, eq, isNull } from 'drizzle-orm';
import { isAdministrator, type SignedInUser } from '../../auth/policy.ts';
import type { Database } from '../../db/client.ts';
import { passkeys, recoveryCodes, sessions, totpFactors, users, webauthnChallenges } from '../../db/schema.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import type { MailOutbox } from '../../mail/outbox.ts';
import { personName } from '../accounts.ts';
import { findManagedUser } from '../sessions.ts';
import { secondFactorState } from './factors.ts';

/**
 * Whose second factor the caller may reset: the administrator anyone's (doctors and
 * assistants too); Users-page staff a Web user no stronger than themselves, the rule for
 * ending someone's sessions and editing them (services/sessions.ts `findManagedUser`).
 */
async function assertMayReset(db: Database, actor: SignedInUser, userId: number): Promise<void> {
  // Not one's own: that would remove one's factors with the session alone (the Security page asks for a proof).
  if (actor.userId === userId) throw conflict('Change your own second factor on your Security page.');
  if (!isAdministrator(actor)) return findManagedUser(db, actor, userId);
  const [target] = await db
    .select({ userId: users.userId })
    .from(users)
    .where(and(eq(users.userId, userId), isNull(users.deletedAt)));
  if (!target) throw notFound('User');
}

/**
 * Removes every factor of the user (authenticator app, set up or not, passkeys, recovery
 * codes, pending passkey challenges) and ends all their sessions, in one transaction with the
 * mail that tells them: a user whose role requires a factor sets one up at the next sign-in.
 * Answers the ended sessions, whose event streams the route closes.
 */
export async function resetSecondFactor(
  deps: { db: Database; outbox: MailOutbox },
  actor: SignedInUser,
  userId: number,
): Promise<string[]> {
  await assertMayReset(deps.db, actor, userId);
  return deps.db.transaction(async (tx) => {
    const [owner] = await tx
      .select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .where(eq(users.userId, userId))
      .for('update');
    if (!owner) throw notFound('User');
    await tx.delete(totpFactors).where(eq(totpFactors.userId, userId));
    await tx.delete(passkeys).where(eq(passkeys.userId, userId));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, userId));
    const ended = await tx
      .delete(sessions)
      .where(eq(sessions.userId, userId))
      .returning({ sessionId: sessions.sessionId });
    const { isRequired } = await secondFactorState(tx, userId);
    await deps.outbox.enqueue(tx, {
      to: owner.email,
      template: 'secondFactorReset',
      variables: { name: personName(owner), mustEnrol: isRequired ? 'yes' : 'no' },
    });
    return ended.map((row) => row.sessionId);
  });
}
