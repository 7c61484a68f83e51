import { secondFactorMessages, type EnrolmentResponse, type WebauthnOptions } from '@portal/contract';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { passkeys, users, webauthnChallenges } from '../../db/schema.ts';
import { AppError, badRequest, conflict } from '../../lib/errors.ts';
import { factorCount, secondFactorState } from './factors.ts';
import { replaceRecoveryCodes } from './recovery-codes.ts';

/** The relying party is the portal's public address: its host name is the rpID, its origin the expected origin. */
export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

export const relyingPartyFor = (publicUrl: string): RelyingParty => {
  const url = new URL(publicUrl);
  return { id: url.hostname, name: 'Aligner Portal', origin: url.origin };
};

/**
 * EdDSA, ES256 and RS256: what authenticators make. Named here, so the library does not
 * probe Node for ML-DSA-44 (an experimental Web Crypto feature on Node 24, which prints a
 * warning on every start that registers a passkey).
 */
const supportedAlgorithmIDs = [-8, -7, -257];

/** How long a ceremony may take, from options to answer. */
const challengeMs = 5 * 60 * 1000;

type Purpose = 'register' | 'authenticate';

async function keepChallenge(db: Database, challenge: string, purpose: Purpose, userId: number | null) {
  // Challenges nobody answered go with the next one handed out.
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, sql`now()`));
  await db
    .insert(webauthnChallenges)
    .values({ challenge, purpose, userId, expiresAt: new Date(Date.now() + challengeMs) });
}

/** Takes the challenge if this portal handed it out for this purpose and user and it is still in time: once only. */
const takeChallenge = (db: Database, purpose: Purpose, userId: number | null) => async (challenge: string) => {
  const taken = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.purpose, purpose),
        userId === null ? isNull(webauthnChallenges.userId) : eq(webauthnChallenges.userId, userId),
        gt(webauthnChallenges.expiresAt, sql`now()`),
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge });
  return taken.length > 0;
};

const rejected = () => new AppError(401, secondFactorMessages.passkeyRejected);

export async function passkeyRegistrationOptions(db: Database, rp: RelyingParty, userId: number) {
  const [user] = await db.select({ userName: users.userName }).from(users).where(eq(users.userId, userId));
  const existing = await db
    .select({ id: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, userId));
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user!.userName,
    userID: new TextEncoder().encode(`portal-user-${userId}`),
    attestationType: 'none',
    supportedAlgorithmIDs,
    excludeCredentials: existing,
    // Resident keys so the same passkey can sign in on its own.
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await keepChallenge(db, options.challenge, 'register', userId);
  return { ...options } satisfies WebauthnOptions;
}

/** Verifies the authenticator's answer against a challenge handed to this user, and keeps the passkey. */
export async function registerPasskey(
  db: Database,
  rp: RelyingParty,
  userId: number,
  credential: unknown,
  name: string | undefined,
): Promise<Pick<EnrolmentResponse, 'message' | 'recoveryCodes'>> {
  const verification = await verifyRegistrationResponse({
    response: credential as RegistrationResponseJSON,
    expectedChallenge: takeChallenge(db, 'register', userId),
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: false,
    supportedAlgorithmIDs,
  }).catch(() => {
    throw badRequest(secondFactorMessages.passkeyRejected);
  });
  if (!verification.verified) throw badRequest(secondFactorMessages.passkeyRejected);
  const { credential: made } = verification.registrationInfo;
  return db.transaction(async (tx) => {
    const isFirstFactor = factorCount(await secondFactorState(tx, userId)) === 0;
    const inserted = await tx
      .insert(passkeys)
      .values({
        userId,
        credentialId: made.id,
        publicKey: Buffer.from(made.publicKey).toString('base64url'),
        signCount: made.counter,
        transports: made.transports ?? [],
        name: name || `Passkey ${new Date().toISOString().slice(0, 10)}`,
      })
      .onConflictDoNothing()
      .returning({ passkeyId: passkeys.passkeyId });
    if (inserted.length === 0) throw conflict('This passkey is already registered.');
    const recoveryCodes = isFirstFactor ? await replaceRecoveryCodes(tx, userId) : null;
    return { message: secondFactorMessages.enrolled, recoveryCodes };
  });
}

/**
 * Assertion options: for the second step, the user's own passkeys; for a sign-in with a
 * passkey alone (`userId` null), any passkey the authenticator holds for this portal.
 */
export async function passkeyAuthenticationOptions(db: Database, rp: RelyingParty, userId: number | null) {
  const allowCredentials =
    userId === null
      ? undefined
      : await db
          .select({ id: passkeys.credentialId, transports: passkeys.transports })
          .from(passkeys)
          .where(eq(passkeys.userId, userId));
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials,
    userVerification: userId === null ? 'required' : 'preferred',
  });
  await keepChallenge(db, options.challenge, 'authenticate', userId);
  return { ...options } satisfies WebauthnOptions;
}

/**
 * The user whose passkey signed the challenge. A passkey alone must have verified the user
 * (PIN or biometrics): it then stands for both factors. The signature counter must move on
 * when the authenticator keeps one (a cloned key shows an old count).
 */
export async function verifyPasskeyAssertion(
  db: Database,
  rp: RelyingParty,
  userId: number | null,
  credential: { id: string },
): Promise<number> {
  const [stored] = await db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.credentialId, credential.id), userId === null ? undefined : eq(passkeys.userId, userId)));
  if (!stored) throw rejected();
  const verification = await verifyAuthenticationResponse({
    response: credential as AuthenticationResponseJSON,
    expectedChallenge: takeChallenge(db, 'authenticate', userId),
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: {
      id: stored.credentialId,
      publicKey: new Uint8Array(Buffer.from(stored.publicKey, 'base64url')),
      counter: stored.signCount,
      transports: stored.transports,
    },
    requireUserVerification: userId === null,
  }).catch(() => {
    throw rejected();
  });
  if (!verification.verified) throw rejected();
  const { newCounter } = verification.authenticationInfo;
  const moved = await db
    .update(passkeys)
    .set({ signCount: newCounter, lastUsedAt: new Date() })
    .where(
      and(
        eq(passkeys.passkeyId, stored.passkeyId),
        // Authenticators that keep no counter send 0 every time.
        or(eq(passkeys.signCount, 0), lt(passkeys.signCount, newCounter)),
      ),
    )
    .returning({ userId: passkeys.userId });
  if (moved.length === 0) throw rejected();
  return stored.userId;
}
