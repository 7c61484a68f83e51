import { planMessages, type PlanState, type PlanVersion } from '@portal/contract';
import { and, asc, desc, eq, inArray, max, ne, sql, type SQL } from 'drizzle-orm';
import type { SignedInUser } from '../../auth/policy.ts';
import type { Database } from '../../db/client.ts';
import { isoTimestamp } from '../../db/iso-timestamp.ts';
import { cases, planArches, planStageFiles, treatmentPlans, users } from '../../db/schema.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { enqueueCaseMail } from '../../mail/case-mail.ts';
import type { MailOutbox } from '../../mail/outbox.ts';
import type { VisibleCase } from '../cases/case-access.ts';
import { sendPlanComments } from './plan-comments.ts';
import { checkPlanVersions, type CheckedPlan } from './plan-findings.ts';
import type { StepLimits } from './plan-movements.ts';
import { queuePlanViews } from './plan-views.ts';
import type { ReceivedPlanUpload } from './receive-plan-upload.ts';
import { fullNameOf, fullNameById } from '../../db/user-names.ts';

interface Deps {
  db: Database;
  outbox: MailOutbox;
  jobs: JobQueue;
  publicUrl: string;
}

/** What the route publishes after the commit as a `case.plan` event. */
export interface PlanChange {
  caseId: number;
  planId: number;
  version: number;
  state: PlanState;
  doctorUserId: number;
  at: string;
}

/**
 * A new plan version (docs/decisions/plans.md § Treatment plans), in one transaction: the case
 * row is locked so versions are numbered one after another, the newest version before it
 * is superseded, the stage files are recorded, `cases.plan_state` becomes
 * awaiting_approval, the doctor's e-mail and the viewer's copies (plan-views.ts) are queued.
 */
export async function createPlanVersion(
  deps: Deps,
  actor: SignedInUser,
  caseId: number,
  upload: ReceivedPlanUpload,
): Promise<PlanChange> {
  const created = await deps.db.transaction(async (tx) => {
    const [found] = await tx
      .select({ doctorUserId: cases.doctorUserId, trackingNo: cases.trackingNo })
      .from(cases)
      .where(eq(cases.caseId, caseId))
      .for('update');
    if (!found) throw notFound('Case');
    const [latest] = await tx
      .select({ version: max(treatmentPlans.version) })
      .from(treatmentPlans)
      .where(eq(treatmentPlans.caseId, caseId));
    const version = (latest?.version ?? 0) + 1;
    await tx
      .update(treatmentPlans)
      .set({ state: 'superseded' })
      .where(
        and(
          eq(treatmentPlans.caseId, caseId),
          eq(treatmentPlans.version, version - 1),
          ne(treatmentPlans.state, 'superseded'),
        ),
      );
    const [plan] = await tx
      .insert(treatmentPlans)
      .values({ caseId, version, state: 'awaiting_approval', summary: upload.summary, uploadedBy: actor.userId })
      .returning({ planId: treatmentPlans.planId, createdAt: treatmentPlans.createdAt });
    await tx.insert(planStageFiles).values(
      upload.stages.map((file) => ({
        planId: plan!.planId,
        caseId,
        arch: file.arch,
        stage: file.stage,
        fileName: file.fileName,
        storageKey: file.storageKey,
        fileSize: file.size,
        sha256: file.sha256,
      })),
    );
    await queuePlanViews(
      tx,
      deps.jobs,
      found.doctorUserId,
      plan!.planId,
      planArches.filter((arch) => upload.stages.some((file) => file.arch === arch)),
    );
    await tx.update(cases).set({ planState: 'awaiting_approval' }).where(eq(cases.caseId, caseId));
    const [doctor] = await tx
      .select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .where(eq(users.userId, found.doctorUserId));
    await enqueueCaseMail(tx, deps.outbox, {
      to: doctor!.email,
      userId: found.doctorUserId,
      caseId,
      template: 'planReady',
      variables: {
        doctorName: `${doctor!.firstName} ${doctor!.lastName}`,
        trackingNo: found.trackingNo,
        version: String(version),
        caseUrl: `${deps.publicUrl}/cases/${caseId}`,
      },
    });
    return {
      caseId,
      planId: plan!.planId,
      version,
      state: 'awaiting_approval' as const,
      doctorUserId: found.doctorUserId,
      at: plan!.createdAt.toISOString(),
    };
  });
  deps.outbox.kick();
  deps.jobs.kick();
  return created;
}

export type PlanDecision =
  | { decision: 'approved'; reviewedIn3d: true; findingsAcknowledged: boolean; limits: StepLimits }
  | { decision: 'changes_requested'; comment: string };

/**
 * The case's doctor decides on the version awaiting approval (the route resolved the case
 * with its doctor the caller: routes/records.ts, casePlan): the plan row and
 * `cases.plan_state` change together, with the case row locked first (as an upload locks
 * it) so a decision and a new version never cross. A superseded or already decided version
 * is 409. An approval is checked against the prescription first (plan-findings.ts): 409 while
 * the movements are being measured, 400 unless the doctor acknowledges the findings (or that
 * the check could not be completed).
 */
export async function decidePlan(
  db: Database,
  actor: SignedInUser,
  visible: VisibleCase & { planId: number },
  decision: PlanDecision,
): Promise<PlanChange> {
  const { caseId, planId } = visible;
  return db.transaction(async (tx) => {
    await tx.select({ caseId: cases.caseId }).from(cases).where(eq(cases.caseId, caseId)).for('update');
    const [plan] = await tx
      .select({ state: treatmentPlans.state, version: treatmentPlans.version, summary: treatmentPlans.summary })
      .from(treatmentPlans)
      .where(and(eq(treatmentPlans.planId, planId), eq(treatmentPlans.caseId, caseId)))
      .for('update');
    if (!plan) throw notFound('Plan');
    if (plan.state === 'superseded') throw conflict(planMessages.superseded);
    if (plan.state !== 'awaiting_approval') throw conflict(planMessages.alreadyDecided);
    let findingsAcknowledged: boolean | null = null;
    if (decision.decision === 'approved') {
      const checked = (await checkPlanVersions(tx, caseId, [{ planId, summary: plan.summary }], decision.limits)).get(
        planId,
      )!;
      if (checked.findingsCheck.state === 'pending') throw conflict(planMessages.checkPending);
      if (checked.findings.length > 0 || checked.findingsCheck.state === 'partial') {
        if (!decision.findingsAcknowledged) {
          throw badRequest(planMessages.findingsNotAcknowledged, {
            findingsAcknowledged: planMessages.findingsNotAcknowledged,
          });
        }
        findingsAcknowledged = true;
      }
    }
    const [decided] = await tx
      .update(treatmentPlans)
      .set({
        state: decision.decision,
        decidedBy: actor.userId,
        decidedAt: sql`now()`,
        decision: decision.decision,
        reviewedIn3d: decision.decision === 'approved' ? decision.reviewedIn3d : null,
        findingsAcknowledged,
        comment: decision.decision === 'changes_requested' ? decision.comment : null,
      })
      .where(eq(treatmentPlans.planId, planId))
      .returning({ decidedAt: treatmentPlans.decidedAt });
    await tx.update(cases).set({ planState: decision.decision }).where(eq(cases.caseId, caseId));
    // The comments the doctor pinned go to the lab with their change request.
    if (decision.decision === 'changes_requested') await sendPlanComments(tx, planId);
    return {
      caseId,
      planId,
      version: plan.version,
      state: decision.decision,
      doctorUserId: visible.doctorUserId,
      at: decided!.decidedAt!.toISOString(),
    };
  });
}

/** A stage file row as listed: its id stands where the answer has its download address. */
export type PlanVersionRow = Omit<PlanVersion, 'stages'> & {
  stages: (Omit<PlanVersion['stages'][number], 'url'> & { stageFileId: number })[];
};

/** One version's number and state, for the event a change to its comments publishes. */
export async function findPlanState(db: Database, planId: number) {
  const [plan] = await db
    .select({ version: treatmentPlans.version, state: treatmentPlans.state })
    .from(treatmentPlans)
    .where(eq(treatmentPlans.planId, planId));
  if (!plan) throw notFound('Plan');
  return plan;
}

/**
 * Every version of a case's plan, newest first, each with its stage files (upper then lower,
 * by stage) and its findings against the prescription and `limits`.
 */
export async function listPlans(db: Database, { caseId }: VisibleCase, limits: StepLimits): Promise<PlanVersionRow[]> {
  const plans = await db
    .select({
      planId: treatmentPlans.planId,
      caseId: treatmentPlans.caseId,
      version: treatmentPlans.version,
      state: treatmentPlans.state,
      summary: treatmentPlans.summary,
      uploadedBy: treatmentPlans.uploadedBy,
      uploadedByName: fullNameOf(users),
      createdAt: isoTimestamp(treatmentPlans.createdAt),
      decidedBy: treatmentPlans.decidedBy,
      decidedByName: fullNameById(treatmentPlans.decidedBy),
      decidedAt: isoTimestamp(treatmentPlans.decidedAt) as SQL<string | null>,
      reviewedIn3d: treatmentPlans.reviewedIn3d,
      findingsAcknowledged: treatmentPlans.findingsAcknowledged,
      comment: treatmentPlans.comment,
    })
    .from(treatmentPlans)
    .innerJoin(users, eq(users.userId, treatmentPlans.uploadedBy))
    .where(eq(treatmentPlans.caseId, caseId))
    .orderBy(desc(treatmentPlans.version));
  if (plans.length === 0) return [];
  const files = await db
    .select({
      planId: planStageFiles.planId,
      stageFileId: planStageFiles.stageFileId,
      arch: planStageFiles.arch,
      stage: planStageFiles.stage,
      fileName: planStageFiles.fileName,
      size: planStageFiles.fileSize,
      sha256: planStageFiles.sha256,
    })
    .from(planStageFiles)
    .where(
      inArray(
        planStageFiles.planId,
        plans.map((plan) => plan.planId),
      ),
    )
    .orderBy(desc(planStageFiles.arch), asc(planStageFiles.stage));
  const checked = await checkPlanVersions(db, caseId, plans, limits);
  return plans.map((plan) => ({
    ...plan,
    // Versions uploaded before attachments had a stage (or a reason for findings) have none.
    summary: {
      attachmentStages: [],
      findingsReason: '',
      ...(plan.summary as Omit<PlanVersion['summary'], 'attachmentStages' | 'findingsReason'>),
    },
    ...(checked.get(plan.planId) as CheckedPlan),
    stages: files.filter((file) => file.planId === plan.planId).map(({ planId: _planId, ...file }) => file),
  }));
}
