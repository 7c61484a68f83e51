import { secondFactorMessages, type ReauthenticateRequest } from '@portal/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { PasswordHasher } from '../../auth/passwords.ts';
import type { SignedInUser } from '../../auth/policy.ts';
import type { Database } from '../../db/client.ts';
import { isoTimestamp } from '../../db/iso-timestamp.ts';
import { sessions, users } from '../../db/schema.ts';
import { AppError, forbidden } from '../../lib/errors.ts';
import { verifyPasskeyAssertion, type RelyingParty } from './passkeys.ts';
import { verifyTotpCode } from './totp.ts';

/**
 * How long a proof given on a session lets its holder change their second factors: long
 * enough to set up an app or a passkey, short enough that a session taken later cannot.
 * docs/decisions/second-factor-changes.md.
 */
export const freshProofMinutes = 5;

/**
 * Did the caller prove who they are on this session in the last minutes? A user enrolling
 * during sign-in (interim token) has: their password was given moments ago, for this token.
 */
export async function hasFreshProof(db: Database, user: SignedInUser): Promise<boolean> {
  if (user.isEnrolling) return true;
  const [fresh] = await db
    .select({ sessionId: sessions.sessionId })
    .from(sessions)
    .where(
      and(
        eq(sessions.sessionId, user.jti),
        eq(sessions.userId, user.userId),
        sql`${sessions.provedAt} > now() - make_interval(mins => ${freshProofMinutes})`,
      ),
    );
  return fresh !== undefined;
}

/** Refuses a change of a second factor without a fresh proof, with the answer the web app knows to ask for one. */
export async function assertFreshProof(db: Database, user: SignedInUser): Promise<void> {
  if (!(await hasFreshProof(db, user))) throw forbidden(secondFactorMessages.proofRequired);
}

/**
 * Checks what the caller gave (exactly one of: the current password, a code from their
 * authenticator app, a passkey's answer to their challenge). Recovery codes are not taken:
 * whoever has the session and lost their device still knows their password, and a one-time
 * code spent on a confirmation is one fewer for the day the device is gone.
 */
async function isProved(
  deps: { db: Database; passwords: PasswordHasher; rp: RelyingParty },
  user: SignedInUser,
  proof: ReauthenticateRequest,
): Promise<boolean> {
  const { db } = deps;
  if (proof.password !== undefined) {
    const [account] = await db
      .select({ passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.userId, user.userId));
    return deps.passwords.verify(account?.passwordHash, proof.password);
  }
  if (proof.code !== undefined) return verifyTotpCode(db, user.userId, proof.code);
  if (proof.credential !== undefined) {
    // A passkey that is not the caller's, or a bad signature: a wrong answer, not a lost session.
    return verifyPasskeyAssertion(db, deps.rp, user.userId, proof.credential).then(
      () => true,
      (error: unknown) => {
        if (error instanceof AppError && error.status === 401) return false;
        throw error;
      },
    );
  }
  return false;
}

/**
 * Records a proof on the caller's session: for `freshProofMinutes`, changes of their second
 * factors go through. A wrong answer is 403 (not 401: the session itself is still good).
 */
export async function reauthenticate(
  deps: { db: Database; passwords: PasswordHasher; rp: RelyingParty },
  user: SignedInUser,
  proof: ReauthenticateRequest,
): Promise<{ message: string; validUntil: string }> {
  if (!(await isProved(deps, user, proof))) {
    const field = proof.password !== undefined ? 'password' : proof.code !== undefined ? 'code' : 'credential';
    throw new AppError(403, secondFactorMessages.proofRejected, { [field]: secondFactorMessages.proofRejected });
  }
  const [proved] = await deps.db
    .update(sessions)
    .set({ provedAt: sql`now()` })
    .where(and(eq(sessions.sessionId, user.jti), eq(sessions.userId, user.userId)))
    .returning({ validUntil: isoTimestamp(sql`(${sessions.provedAt} + make_interval(mins => ${freshProofMinutes}))`) });
  return { message: secondFactorMessages.proved, validUntil: proved!.validUntil };
}
