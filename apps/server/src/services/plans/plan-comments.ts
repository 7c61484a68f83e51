import { planMessages, type PlanComment, type PlanCommentInput, type PlanVersion } from '@portal/contract';
import { and, asc, count, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { SignedInUser } from '../../auth/policy.ts';
import type { Database } from '../../db/client.ts';
import { isoTimestamp } from '../../db/iso-timestamp.ts';
import { planComments, treatmentPlans, users } from '../../db/schema.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import type { VisibleCase } from '../cases/case-access.ts';
import { nearestTooth } from './plan-movements.ts';
import { fullNameOf } from '../../db/user-names.ts';

/**
 * Comments pinned to a plan version's model
 * (docs/decisions/plans.md § Comments pinned to the model): the case's doctor writes them on the
 * version awaiting approval, as drafts only they see; their change request sends them to
 * the lab (plans.ts, decidePlan); the lab marks each resolved once a new version answers it.
 */

type PlanRecord = VisibleCase & { planId: number };

/** A version's comments at most: a bound on what one doctor can store, far past a real review. */
const maxCommentsPerVersion = 100;

const resolver = alias(users, 'resolver');

/** The comments of a version as answered, oldest first, numbered in that order (the doctor's numbers, the lab's too). */
async function listComments(db: Database, planId: number, onlySent = false): Promise<PlanComment[]> {
  const rows = await db
    .select({
      commentId: planComments.commentId,
      planId: planComments.planId,
      stage: planComments.stage,
      arch: planComments.arch,
      point: planComments.point,
      tooth: planComments.tooth,
      text: planComments.text,
      author: fullNameOf(users),
      createdAt: isoTimestamp(planComments.createdAt),
      sentAt: isoTimestamp(planComments.sentAt) as SQL<string | null>,
      resolvedAt: isoTimestamp(planComments.resolvedAt) as SQL<string | null>,
      resolvedBy: fullNameOf(resolver) as SQL<string | null>,
    })
    .from(planComments)
    .innerJoin(users, eq(users.userId, planComments.authorId))
    .leftJoin(resolver, eq(resolver.userId, planComments.resolvedBy))
    .where(eq(planComments.planId, planId))
    .orderBy(asc(planComments.commentId));
  const numbered = rows.map((row, index) => ({ ...row, number: index + 1, point: row.point as number[] }));
  return onlySent ? numbered.filter((row) => row.sentAt !== null) : numbered;
}

/** A version's comments for the caller: the case's doctor sees their drafts too, the lab only those sent. */
export function readPlanComments(db: Database, actor: SignedInUser, record: PlanRecord): Promise<PlanComment[]> {
  const isCaseDoctor = actor.userId === record.doctorUserId;
  return listComments(db, record.planId, !isCaseDoctor);
}

/** The version with its summary, or 404 when it is not this case's. */
async function findPlan(db: Pick<Database, 'select'>, { caseId, planId }: PlanRecord) {
  const [plan] = await db
    .select({ state: treatmentPlans.state, summary: treatmentPlans.summary })
    .from(treatmentPlans)
    .where(and(eq(treatmentPlans.planId, planId), eq(treatmentPlans.caseId, caseId)));
  if (!plan) throw notFound('Plan');
  return { state: plan.state, summary: plan.summary as PlanVersion['summary'] };
}

/** The case's doctor pins a comment (the route resolved the case with its doctor the caller). */
export async function addPlanComment(
  db: Database,
  actor: SignedInUser,
  record: PlanRecord,
  input: PlanCommentInput,
): Promise<PlanComment> {
  const plan = await findPlan(db, record);
  if (plan.state !== 'awaiting_approval') throw conflict(planMessages.commentsOnAwaiting);
  const stages = input.arch === 'upper' ? plan.summary.upperStages : plan.summary.lowerStages;
  if (stages === 0) throw badRequest(`This version has no ${input.arch} stages`, { arch: 'This arch has no stages' });
  if (input.stage > stages) {
    throw badRequest(`Stage must be from 0 to ${stages}`, { stage: `Stage must be from 0 to ${stages}` });
  }
  const [written] = await db
    .select({ count: count() })
    .from(planComments)
    .where(eq(planComments.planId, record.planId));
  if ((written?.count ?? 0) >= maxCommentsPerVersion) throw conflict(planMessages.tooManyComments);
  const tooth = await nearestTooth(db, record.planId, input.arch, input.stage, input.point);
  const [created] = await db
    .insert(planComments)
    .values({ planId: record.planId, authorId: actor.userId, ...input, tooth })
    .returning({ commentId: planComments.commentId });
  return (await listComments(db, record.planId)).find((comment) => comment.commentId === created!.commentId)!;
}

/** The case's doctor removes a draft (the route resolved the comment on their case); one sent with a change request stays (409). */
export async function deletePlanComment(db: Database, record: PlanRecord & { commentId: number }): Promise<void> {
  const { commentId } = record;
  const [comment] = await db
    .select({ sentAt: planComments.sentAt })
    .from(planComments)
    .where(and(eq(planComments.commentId, commentId), eq(planComments.planId, record.planId)));
  if (!comment) throw notFound('Comment');
  if (comment.sentAt) throw conflict(planMessages.commentAlreadySent);
  await db
    .delete(planComments)
    .where(
      and(eq(planComments.commentId, commentId), eq(planComments.planId, record.planId), isNull(planComments.sentAt)),
    );
}

/** The lab marks a sent comment resolved (again: unchanged); a draft is not theirs to see (404). */
export async function resolvePlanComment(
  db: Database,
  actor: SignedInUser,
  record: PlanRecord,
  commentId: number,
): Promise<PlanComment> {
  const thisComment = and(
    eq(planComments.commentId, commentId),
    eq(planComments.planId, record.planId),
    isNotNull(planComments.sentAt),
  );
  const [comment] = await db.select({ resolvedAt: planComments.resolvedAt }).from(planComments).where(thisComment);
  if (!comment) throw notFound('Comment');
  if (!comment.resolvedAt) {
    await db
      .update(planComments)
      .set({ resolvedAt: new Date(), resolvedBy: actor.userId })
      .where(and(thisComment, isNull(planComments.resolvedAt)));
  }
  return (await listComments(db, record.planId)).find((found) => found.commentId === commentId)!;
}

/** In the change request's transaction: the version's drafts go to the lab with it. */
export async function sendPlanComments(tx: Pick<Database, 'update'>, planId: number): Promise<void> {
  await tx
    .update(planComments)
    .set({ sentAt: sql`now()` })
    .where(and(eq(planComments.planId, planId), isNull(planComments.sentAt)));
}
