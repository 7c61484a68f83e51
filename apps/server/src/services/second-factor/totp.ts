import { secondFactorMessages, type EnrolmentResponse } from '@portal/contract';
import { and, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { Database } from '../../db/client.ts';
import { totpFactors, users } from '../../db/schema.ts';
import { badRequest, conflict } from '../../lib/errors.ts';
import { factorCount, secondFactorState } from './factors.ts';
import { replaceRecoveryCodes } from './recovery-codes.ts';

const issuer = 'Aligner Portal';
/** One 30-second step either side of now, for clocks that drift and codes typed slowly. */
const epochTolerance = 30;

/** The time step the code belongs to, if it is right for the secret and later than `afterTimeStep`. */
async function matchingTimeStep(secret: string, code: string, afterTimeStep: number | null): Promise<number | null> {
  const result = await verify({
    secret,
    token: code,
    epochTolerance,
    ...(afterTimeStep !== null && { afterTimeStep }),
  });
  // The functional API answers HOTP's result type too; a TOTP check carries its time step.
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** A new secret, unconfirmed until a code from it comes back; refused while one is confirmed. */
export async function startTotpEnrolment(db: Database, userId: number) {
  const [user] = await db
    .select({ userName: users.userName, confirmedAt: totpFactors.confirmedAt })
    .from(users)
    .leftJoin(totpFactors, eq(totpFactors.userId, users.userId))
    .where(eq(users.userId, userId));
  if (user?.confirmedAt) throw conflict('An authenticator app is already set up: remove it first to set up another.');
  const secret = generateSecret();
  await db
    .insert(totpFactors)
    .values({ userId, secret })
    .onConflictDoUpdate({ target: totpFactors.userId, set: { secret, createdAt: new Date(), lastTimeStep: null } });
  const uri = generateURI({ issuer, label: user!.userName, secret });
  const qrCodeSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, uri, qrCodeSvg };
}

/**
 * The code proves the app holds the secret. Recovery codes come with a user's first factor;
 * the code's time step is kept so the same code cannot also finish a sign-in.
 */
export async function confirmTotpEnrolment(
  db: Database,
  userId: number,
  code: string,
): Promise<Pick<EnrolmentResponse, 'message' | 'recoveryCodes'>> {
  const [pending] = await db
    .select({ secret: totpFactors.secret })
    .from(totpFactors)
    .where(and(eq(totpFactors.userId, userId), isNull(totpFactors.confirmedAt)));
  if (!pending) throw conflict('Start setting up an authenticator app first.');
  const timeStep = await matchingTimeStep(pending.secret, code, null);
  if (timeStep === null)
    throw badRequest(secondFactorMessages.codeRejected, { code: secondFactorMessages.codeRejected });
  return db.transaction(async (tx) => {
    const isFirstFactor = factorCount(await secondFactorState(tx, userId)) === 0;
    const confirmed = await tx
      .update(totpFactors)
      .set({ confirmedAt: new Date(), lastTimeStep: timeStep })
      .where(
        and(eq(totpFactors.userId, userId), isNull(totpFactors.confirmedAt), eq(totpFactors.secret, pending.secret)),
      )
      .returning({ userId: totpFactors.userId });
    if (confirmed.length === 0) throw conflict('Start setting up an authenticator app first.');
    const recoveryCodes = isFirstFactor ? await replaceRecoveryCodes(tx, userId) : null;
    return { message: secondFactorMessages.enrolled, recoveryCodes };
  });
}

/**
 * A code from the user's confirmed app, from a later time step than any accepted before:
 * the step is moved on in the same statement that checks it, so a code (even sent twice at
 * once) is accepted at most once.
 */
export async function verifyTotpCode(db: Database, userId: number, code: string): Promise<boolean> {
  const [factor] = await db
    .select({ secret: totpFactors.secret, lastTimeStep: totpFactors.lastTimeStep })
    .from(totpFactors)
    .where(and(eq(totpFactors.userId, userId), isNotNull(totpFactors.confirmedAt)));
  if (!factor) return false;
  const timeStep = await matchingTimeStep(factor.secret, code, factor.lastTimeStep);
  if (timeStep === null) return false;
  const moved = await db
    .update(totpFactors)
    .set({ lastTimeStep: timeStep })
    .where(
      and(eq(totpFactors.userId, userId), or(isNull(totpFactors.lastTimeStep), lt(totpFactors.lastTimeStep, timeStep))),
    )
    .returning({ userId: totpFactors.userId });
  return moved.length > 0;
}
