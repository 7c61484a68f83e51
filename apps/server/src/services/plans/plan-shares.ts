import {
  planMessages,
  planShareMailsPerDay,
  type PlanShare,
  type PlanShareInput,
  type SharedPlan,
} from '@portal/contract';
import { and, count, desc, eq, gt, isNotNull, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { createHash, randomBytes } from 'node:crypto';
import QRCode from 'qrcode';
import type { SignedInUser } from '../../auth/policy.ts';
import type { Database } from '../../db/client.ts';
import { isoTimestamp } from '../../db/iso-timestamp.ts';
import { cases, clinics, planShares, treatmentPlans, users } from '../../db/schema.ts';
import type { MailOutbox } from '../../mail/outbox.ts';
import { fullNameOf } from '../../db/user-names.ts';
import { AppError, conflict, notFound, tooManyRequests } from '../../lib/errors.ts';
import type { VisibleCase } from '../cases/case-access.ts';
import { findPlanViews } from './plan-views.ts';

/**
 * Read-only links for the patient to one plan version (docs/decisions/plans.md § Patient links).
 * The token is 32 random bytes (base64url), shown once in the link; only its SHA-256 is
 * stored, so a copy of the database opens no link. An unknown, expired or revoked token is
 * the same 404; each refused token counts against the caller's address. A link shows the
 * case's current version only: none is made for a replaced version, and a version's links end
 * when a newer one replaces it (docs/decisions/plans.md § Patient links of a replaced version).
 */

const tokenBytes = 32;
/** Open links per version: a doctor revokes one before making an eleventh. */
const maxOpenShares = 10;

type PlanRecord = VisibleCase & { planId: number };

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
/** Neither revoked nor expired, and its version not replaced (joined with treatment_plans). */
const isOpen = and(
  isNull(planShares.revokedAt),
  gt(planShares.expiresAt, sql`now()`),
  ne(treatmentPlans.state, 'superseded'),
);

/** The version is the case's newest and not superseded: the one a patient may be shown. */
const isCurrentVersion = (caseId: number) =>
  and(
    ne(treatmentPlans.state, 'superseded'),
    sql`${treatmentPlans.version} = (select max(p.version) from ${treatmentPlans} p where p.case_id = ${caseId})`,
  );

interface ShareDeps {
  db: Database;
  outbox: MailOutbox;
  publicUrl: string;
}

/**
 * The case's doctor makes a link (the route resolved the case with its doctor the caller), for
 * the case's current version only (409 otherwise); with an address, the link is mailed too
 * (through the outbox, in the same transaction), at most `planShareMailsPerDay` in 24 hours.
 */
export async function createPlanShare(
  deps: ShareDeps,
  actor: SignedInUser,
  record: PlanRecord,
  input: PlanShareInput & { days: number },
): Promise<{ shareId: number; url: string; expiresAt: string; emailedTo: string | null; qrCodeSvg: string }> {
  const token = randomBytes(tokenBytes).toString('base64url');
  const emailedTo = input.email ?? null;
  const made = await deps.db.transaction(async (tx) => {
    const [plan] = await tx
      .select({ planId: treatmentPlans.planId, isCurrent: sql<boolean>`(${isCurrentVersion(record.caseId)})` })
      .from(treatmentPlans)
      .where(and(eq(treatmentPlans.planId, record.planId), eq(treatmentPlans.caseId, record.caseId)))
      .for('update');
    if (!plan) throw notFound('Plan');
    if (!plan.isCurrent) throw conflict(planMessages.shareNotCurrent);
    const [open] = await tx
      .select({ count: count() })
      .from(planShares)
      .innerJoin(treatmentPlans, eq(treatmentPlans.planId, planShares.planId))
      .where(and(eq(planShares.planId, record.planId), isOpen));
    if ((open?.count ?? 0) >= maxOpenShares) throw conflict(planMessages.tooManyShares);
    if (emailedTo !== null) {
      // The doctor's row locked: two mailed links at once cannot both take the last place of the day.
      const [doctor] = await tx
        .select({ name: fullNameOf(users) })
        .from(users)
        .where(eq(users.userId, actor.userId))
        .for('update');
      const [mailed] = await tx
        .select({
          n: count(),
          freeAt: sql<
            string | null
          >`to_char((min(${planShares.createdAt}) + interval '24 hours 1 minute') at time zone 'UTC', 'YYYY-MM-DD HH24:MI "UTC"')`,
          waitSeconds: sql<number>`ceil(extract(epoch from min(${planShares.createdAt}) + interval '24 hours' - now()))::int`,
        })
        .from(planShares)
        .where(
          and(
            eq(planShares.createdBy, actor.userId),
            isNotNull(planShares.emailedTo),
            sql`${planShares.createdAt} > now() - interval '24 hours'`,
          ),
        );
      if (mailed && mailed.n >= planShareMailsPerDay) {
        throw tooManyRequests(planMessages.tooManyShareMails(mailed.freeAt!), Math.max(1, mailed.waitSeconds));
      }
      await deps.outbox.enqueue(tx, {
        to: emailedTo,
        template: 'planShareLink',
        variables: { doctorName: doctor!.name, url: `${deps.publicUrl}/p/${token}`, days: String(input.days) },
      });
    }
    const [created] = await tx
      .insert(planShares)
      .values({
        planId: record.planId,
        createdBy: actor.userId,
        tokenHash: hashOf(token),
        expiresAt: sql`now() + make_interval(days => ${input.days})`,
        emailedTo,
      })
      .returning({ shareId: planShares.shareId, expiresAt: isoTimestamp(planShares.expiresAt) as SQL<string> });
    return { shareId: created!.shareId, url: `${deps.publicUrl}/p/${token}`, expiresAt: created!.expiresAt, emailedTo };
  });
  if (emailedTo !== null) deps.outbox.kick();
  const qrCodeSvg = await QRCode.toString(made.url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { ...made, qrCodeSvg };
}

export async function listPlanShares(db: Database, record: PlanRecord): Promise<PlanShare[]> {
  return db
    .select({
      shareId: planShares.shareId,
      createdAt: isoTimestamp(planShares.createdAt),
      expiresAt: isoTimestamp(planShares.expiresAt),
      lastUsedAt: isoTimestamp(planShares.lastUsedAt) as SQL<string | null>,
      revokedAt: isoTimestamp(planShares.revokedAt) as SQL<string | null>,
      emailedTo: planShares.emailedTo,
      isOpen: sql<boolean>`(${isOpen})`,
    })
    .from(planShares)
    .innerJoin(treatmentPlans, eq(treatmentPlans.planId, planShares.planId))
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
      clinicName: clinics.clinicName,
      clinicPhone: clinics.contactNo,
    })
    .from(planShares)
    .innerJoin(treatmentPlans, eq(treatmentPlans.planId, planShares.planId))
    .innerJoin(cases, eq(cases.caseId, treatmentPlans.caseId))
    // The case's own clinic, a dropped one too: it is where the patient was treated.
    .innerJoin(clinics, eq(clinics.clinicId, cases.clinicId))
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
    clinic: { name: shared.clinicName, phone: shared.clinicPhone.trim() || null },
  };
  return { ...answer, views };
}
