import {
  maxRepliesPerComment,
  planMessages,
  serverFieldMessages,
  type PlanComment,
  type PlanCommentInput,
  type PlanCommentReply,
  type PlanVersion,
} from '@portal/contract';
import { and, asc, count, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { isDoctorSide, type SignedInUser } from '../../auth/policy.ts';
import type { Database } from '../../db/client.ts';
import { isoTimestamp } from '../../db/iso-timestamp.ts';
import { planCommentReplies, planComments, treatmentPlans, users } from '../../db/schema.ts';
import { coded, codedOnField, conflict, notFound } from '../../lib/errors.ts';
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
  const replies = await listReplies(
    db,
    rows.filter((row) => row.sentAt !== null).map((row) => row.commentId),
  );
  const numbered = rows.map((row, index) => ({
    ...row,
    number: index + 1,
    point: row.point as number[],
    replies: replies.get(row.commentId) ?? [],
  }));
  return onlySent ? numbered.filter((row) => row.sentAt !== null) : numbered;
}

/** The replies on these comments, each comment's oldest first. */
async function listReplies(db: Database, commentIds: number[]): Promise<Map<number, PlanCommentReply[]>> {
  const byComment = new Map<number, PlanCommentReply[]>();
  if (commentIds.length === 0) return byComment;
  const rows = await db
    .select({
      commentId: planCommentReplies.commentId,
      replyId: planCommentReplies.replyId,
      text: planCommentReplies.text,
      author: fullNameOf(users),
      side: sql<PlanCommentReply['side']>`case when ${users.userType} = 'Web' then 'lab' else 'doctor' end`,
      createdAt: isoTimestamp(planCommentReplies.createdAt),
    })
    .from(planCommentReplies)
    .innerJoin(users, eq(users.userId, planCommentReplies.authorId))
    .where(inArray(planCommentReplies.commentId, commentIds))
    .orderBy(asc(planCommentReplies.replyId));
  for (const { commentId, ...reply } of rows) byComment.set(commentId, [...(byComment.get(commentId) ?? []), reply]);
  return byComment;
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
  if (stages === 0)
    throw coded(400, 'versionHasNoArchStages', { arch: input.arch }, { arch: serverFieldMessages.archHasNoStages });
  if (input.stage > stages) throw codedOnField(400, 'stageOutOfRange', { stages }, 'stage');
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

/**
 * The lab or the doctor's side replies on a comment sent to the lab (the route resolved the
 * version within the caller's reach). A draft is the doctor's alone: 404 to the lab, 409 to the
 * doctor's side. The comment's row is locked while its replies are counted, so two replies at
 * once cannot both take the last place.
 */
export async function replyToPlanComment(
  db: Database,
  actor: SignedInUser,
  record: PlanRecord,
  commentId: number,
  text: string,
): Promise<{ comment: PlanComment; replyId: number }> {
  const replyId = await db.transaction(async (tx) => {
    const [comment] = await tx
      .select({ sentAt: planComments.sentAt })
      .from(planComments)
      .where(and(eq(planComments.commentId, commentId), eq(planComments.planId, record.planId)))
      .for('update');
    if (!comment || (!comment.sentAt && !isDoctorSide(actor))) throw notFound('Comment');
    if (!comment.sentAt) throw conflict(planMessages.repliesOnSent);
    const [written] = await tx
      .select({ count: count() })
      .from(planCommentReplies)
      .where(eq(planCommentReplies.commentId, commentId));
    if ((written?.count ?? 0) >= maxRepliesPerComment) throw conflict(planMessages.tooManyReplies);
    const [created] = await tx
      .insert(planCommentReplies)
      .values({ commentId, authorId: actor.userId, text })
      .returning({ replyId: planCommentReplies.replyId });
    return created!.replyId;
  });
  const comment = (await listComments(db, record.planId)).find((found) => found.commentId === commentId)!;
  return { comment, replyId };
}
