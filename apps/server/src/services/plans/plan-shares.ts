import { planMessages, type PlanShare, type PlanShareInput, type SharedPlan } from '@portal/contract';
import { and, count, desc, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import { createHash, randomBytes } from 'node:crypto';
import type { SignedInUser } from '../../auth/policy.ts';
import type { Database } from '../../db/client.ts';
import { isoTimestamp } from '../../db/iso-timestamp.ts';
import { cases, planShares, treatmentPlans } from '../../db/schema.ts';
import { AppError, conflict, notFound } from '../../lib/errors.ts';
import type { VisibleCase } from '../cases/case-access.ts';
import { findPlanViews } from './plan-views.ts';

/**
 * Read-only links for the patient to one plan version (docs/decisions/plans.md § Patient links).
 * The token is 32 random bytes (base64url), shown once in the link; only its SHA-256 is
 * stored, so a copy of the database opens no link. An unknown, expired or revoked token is
 * the same 404; each refused token counts against the caller's address.
 */

const tokenBytes = 32;
/** Open links per version: a doctor revokes one before making an eleventh. */
const maxOpenShares = 10;

type PlanRecord = VisibleCase & { planId: number };

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const isOpen = and(isNull(planShares.revokedAt), gt(planShares.expiresAt, sql`now()`));

/** The case's doctor makes a link (the route resolved the case with its doctor the caller). */
export async function createPlanShare(
  db: Database,
  actor: SignedInUser,
  record: PlanRecord,
  input: Required<PlanShareInput>,
  publicUrl: string,
): Promise<{ shareId: number; url: string; expiresAt: string }> {
  const token = randomBytes(tokenBytes).toString('base64url');
  return db.transaction(async (tx) => {
    const [plan] = await tx
      .select({ planId: treatmentPlans.planId })
      .from(treatmentPlans)
      .where(and(eq(treatmentPlans.planId, record.planId), eq(treatmentPlans.caseId, record.caseId)))
      .for('update');
    if (!plan) throw notFound('Plan');
    const [open] = await tx
      .select({ count: count() })
      .from(planShares)
      .where(and(eq(planShares.planId, record.planId), isOpen));
    if ((open?.count ?? 0) >= maxOpenShares) throw conflict(planMessages.tooManyShares);
    const [created] = await tx
      .insert(planShares)
      .values({
        planId: record.planId,
        createdBy: actor.userId,
        tokenHash: hashOf(token),
        expiresAt: sql`now() + make_interval(days => ${input.days})`,
      })
      .returning({ shareId: planShares.shareId, expiresAt: isoTimestamp(planShares.expiresAt) as SQL<string> });
    return { shareId: created!.shareId, url: `${publicUrl}/p/${token}`, expiresAt: created!.expiresAt };
  });
}

export async function listPlanShares(db: Database, record: PlanRecord): Promise<PlanShare[]> {
  return db
    .select({
      shareId: planShares.shareId,
      createdAt: isoTimestamp(planShares.createdAt),
      expiresAt: isoTimestamp(planShares.expiresAt),
      lastUsedAt: isoTimestamp(planShares.lastUsedAt) as SQL<string | null>,
      revokedAt: isoTimestamp(planShares.revokedAt) as SQL<string | null>,
      isOpen: sql<boolean>`(${isOpen})`,
    })
    .from(planShares)
    .where(eq(planShares.planId, record.planId))
    .orderBy(desc(planShares.shareId));
}

/** Revokes a link (the route resolved it on the caller's own case); revoking again changes nothing. */
export async function revokePlanShare(db: Database, record: PlanRecord & { shareId: number }): Promise<void> {
  await db
    .update(planShares)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(planShares.shareId, record.shareId), isNull(planShares.revokedAt)));
}

/** The open link of `token` with what it shows, or the one 404 for any other token. */
export async function findSharedPlan(db: Database, token: string) {
  const [found] = await db
    .select({
      shareId: planShares.shareId,
      planId: planShares.planId,
      caseId: treatmentPlans.caseId,
      version: treatmentPlans.version,
      summary: treatmentPlans.summary,
      firstName: cases.firstName,
    })
    .from(planShares)
    .innerJoin(treatmentPlans, eq(treatmentPlans.planId, planShares.planId))
    .innerJoin(cases, eq(cases.caseId, treatmentPlans.caseId))
    .where(and(eq(planShares.tokenHash, hashOf(token)), isOpen));
  if (!found) throw new AppError(404, planMessages.shareNotFound);
  return found;
}

/** What the patient's page shows; records the link's use. */
export async function readSharedPlan(db: Database, shared: Awaited<ReturnType<typeof findSharedPlan>>) {
  await db
    .update(planShares)
    .set({ lastUsedAt: sql`now()` })
    .where(eq(planShares.shareId, shared.shareId));
  const summary = shared.summary as { upperStages: number; lowerStages: number };
  const views = await findPlanViews(db, shared.planId);
  const initial = shared.firstName.trim().charAt(0).toUpperCase();
  const answer: Omit<SharedPlan, 'views'> = {
    initial: initial ? `${initial}.` : '',
    version: shared.version,
    upperStages: summary.upperStages,
    lowerStages: summary.lowerStages,
  };
  return { ...answer, views };
}
