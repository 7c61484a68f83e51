import { progressScanArch, summarizeProgress, type CaseAttachment, type CaseTimelineEntry } from '@portal/contract';
import { asc, eq, sql } from 'drizzle-orm';
import type { SignedInUser } from '../../auth/policy.ts';
import type { Database } from '../../db/client.ts';
import { isoTimestamp } from '../../db/iso-timestamp.ts';
import {
  caseAssignments,
  caseAttachments,
  caseStatusHistory,
  progressScans,
  treatmentPlans,
  users,
} from '../../db/schema.ts';
import { listMessagesOfCase, type CaseMessageRow } from '../messages/case-messages.ts';
import { readUserToothNotation } from '../user-tooth-notation.ts';
import { findOrderParent, listCaseOrders } from './case-orders.ts';
import type { VisibleCase } from './case-access.ts';
import { fullNameOf, fullNameById } from '../../db/user-names.ts';

/**
 * A case's timeline, oldest first (docs/decisions/cases.md § The case page and its timeline): its
 * submission ('created', from the first history row, naming the case it was ordered from),
 * the files sent with it ('files', at the same moment), then every status change with its
 * note, reason, courier and tracking number, the conversation's messages ('message'),
 * treatment plan versions ('plan', when uploaded), the doctor's decisions on them
 * ('plan_decision'), the orders made from the case ('order', when made) and who the lab
 * assigned it to ('assignment'), all merged in by `at`.
 */
export async function getCaseTimeline(
  db: Database,
  actor: SignedInUser,
  found: VisibleCase,
): Promise<CaseTimelineEntry[]> {
  const { caseId } = found;
  const [history, files, messages, plans, parent, orders, assignments, scans, notation] = await Promise.all([
    db
      .select({
        from: caseStatusHistory.fromStatus,
        to: caseStatusHistory.toStatus,
        by: caseStatusHistory.changedBy,
        byName: fullNameOf(),
        at: isoTimestamp(caseStatusHistory.changedAt),
        note: caseStatusHistory.note,
        reason: caseStatusHistory.reason,
        courier: caseStatusHistory.courier,
        trackingNumber: caseStatusHistory.trackingNumber,
      })
      .from(caseStatusHistory)
      .innerJoin(users, eq(users.userId, caseStatusHistory.changedBy))
      .where(eq(caseStatusHistory.caseId, caseId))
      .orderBy(asc(caseStatusHistory.historyId)),
    db
      .select({ FileName: caseAttachments.fileName, FileType: caseAttachments.fileType })
      .from(caseAttachments)
      .where(eq(caseAttachments.caseId, caseId))
      .orderBy(asc(caseAttachments.attachmentId)),
    listMessagesOfCase(db, found),
    db
      .select({
        planId: treatmentPlans.planId,
        version: treatmentPlans.version,
        state: treatmentPlans.state,
        by: treatmentPlans.uploadedBy,
        byName: fullNameOf(),
        at: isoTimestamp(treatmentPlans.createdAt),
        decidedBy: treatmentPlans.decidedBy,
        decidedByName: fullNameById(treatmentPlans.decidedBy),
        decidedAt: isoTimestamp(treatmentPlans.decidedAt),
        decision: treatmentPlans.decision,
        comment: treatmentPlans.comment,
        // The pinned comments the change request sent, numbered as their pins (every comment of the version, in order).
        pinned: sql<PlanRow['pinned']>`(
          select coalesce(json_agg(json_build_object('number', n, 'stage', stage, 'tooth', tooth, 'text', text) order by n), '[]'::json)
          from (
            select stage, tooth, text, sent_at, row_number() over (order by comment_id) as n
            from plan_comments c where c.plan_id = ${treatmentPlans.planId}
          ) numbered
          where sent_at is not null
        )`,
      })
      .from(treatmentPlans)
      .innerJoin(users, eq(users.userId, treatmentPlans.uploadedBy))
      .where(eq(treatmentPlans.caseId, caseId))
      .orderBy(asc(treatmentPlans.version)),
    findOrderParent(db, caseId),
    listCaseOrders(db, actor, caseId),
    db
      .select({
        kind: sql<'assignment'>`'assignment'`,
        at: isoTimestamp(caseAssignments.assignedAt),
        by: caseAssignments.assignedBy,
        byName: fullNameOf(),
        assigneeUserId: caseAssignments.assigneeUserId,
        assigneeName: fullNameById(caseAssignments.assigneeUserId),
      })
      .from(caseAssignments)
      .innerJoin(users, eq(users.userId, caseAssignments.assignedBy))
      .where(eq(caseAssignments.caseId, caseId))
      .orderBy(asc(caseAssignments.assignmentId)),
    db
      .select({
        progressScanId: progressScans.progressScanId,
        at: isoTimestamp(progressScans.createdAt),
        by: progressScans.uploadedBy,
        byName: fullNameOf(),
        stage: progressScans.stage,
        state: progressScans.state,
        reason: progressScans.reason,
        arches: progressScans.arches,
      })
      .from(progressScans)
      .innerJoin(users, eq(users.userId, progressScans.uploadedBy))
      .where(eq(progressScans.caseId, caseId))
      .orderBy(asc(progressScans.createdAt), asc(progressScans.progressScanId)),
    readUserToothNotation(db, actor.userId),
  ]);

  const timeline: CaseTimelineEntry[] = [];
  for (const { from, to, by, byName, at, ...carried } of history) {
    if (from === null) {
      timeline.push({ kind: 'created', at, by, byName, trackingNo: found.trackingNo, parent });
      if (files.length > 0) {
        timeline.push({
          kind: 'files',
          at,
          files: files.map((file) => ({ ...file, FileType: file.FileType as CaseAttachment['FileType'] })),
        });
      }
    } else {
      timeline.push({ kind: 'status', at, by, byName, from, to, ...carried });
    }
  }
  const orderEntries = orders.map(({ createdAt, ...order }): CaseTimelineEntry => ({
    kind: 'order',
    at: createdAt,
    ...order,
  }));
  // A progress scan where it was sent, with its result as it stands now (docs/decisions/progress-scans.md).
  // The sentence's teeth in the reader's notation, as the case page names every tooth (docs/decisions/tooth-notation.md).
  const scanEntries = scans.map(({ arches, state, reason, ...scan }): CaseTimelineEntry => ({
    kind: 'progress_scan',
    ...scan,
    state,
    sentence:
      state === 'done' ? summarizeProgress(progressScanArch.array().parse(arches ?? []), notation).sentence : null,
    reason: state === 'failed' ? reason : null,
  }));
  return [messages.map(messageEntry), planEntries(plans), orderEntries, assignments, scanEntries].reduce(
    mergeByTime,
    timeline,
  );
}

const messageEntry = (message: CaseMessageRow): CaseTimelineEntry => ({
  kind: 'message',
  at: message.at,
  by: message.authorUserId,
  byName: message.authorName,
  side: message.side,
  text: message.text,
  attachments: message.files.map(({ fileName }) => ({ fileName })),
});

interface PlanRow {
  planId: number;
  version: number;
  state: string;
  by: number;
  byName: string;
  at: string;
  decidedBy: number | null;
  decidedByName: string | null;
  decidedAt: string | null;
  decision: 'approved' | 'changes_requested' | null;
  comment: string | null;
  pinned: { number: number; stage: number; tooth: number | null; text: string }[];
}

/** Each version's upload, and the doctor's decision on it when there was one. */
function planEntries(plans: PlanRow[]): CaseTimelineEntry[] {
  const entries: CaseTimelineEntry[] = [];
  for (const plan of plans) {
    entries.push({
      kind: 'plan',
      at: plan.at,
      by: plan.by,
      byName: plan.byName,
      planId: plan.planId,
      version: plan.version,
    });
    if (plan.decidedAt !== null && plan.decidedBy !== null && plan.decision !== null) {
      entries.push({
        kind: 'plan_decision',
        at: plan.decidedAt,
        by: plan.decidedBy,
        byName: plan.decidedByName ?? '',
        planId: plan.planId,
        version: plan.version,
        // A decided version keeps its decision even once superseded.
        decision: plan.decision,
        comment: plan.comment,
        pinned: plan.pinned,
      });
    }
  }
  return entries.sort((a, b) => a.at.localeCompare(b.at));
}

/** Two lists, each oldest first, as one; on equal times the first list's entry comes first. */
function mergeByTime(first: CaseTimelineEntry[], second: CaseTimelineEntry[]): CaseTimelineEntry[] {
  const merged: CaseTimelineEntry[] = [];
  let i = 0;
  let j = 0;
  while (i < first.length || j < second.length) {
    const takeFirst = j >= second.length || (i < first.length && Date.parse(first[i]!.at) <= Date.parse(second[j]!.at));
    merged.push(takeFirst ? first[i++]! : second[j++]!);
  }
  return merged;
}
