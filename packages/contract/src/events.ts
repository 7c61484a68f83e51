import { z } from 'zod';
import { caseStatus } from './cases.ts';
import { messageSide } from './messages.ts';
import { planState } from './plans.ts';

/**
 * What `GET /api/events` streams (Server-Sent Events). Each kind is one `event:` name with
 * its JSON `data:`; events say only what changed and which record, never patient data: a
 * client refetches what it shows, through the routes that check who may read it.
 * Status changes, messages, plan events and assignments; a new kind is a further member of `liveEvent`.
 */
export const caseStatusEvent = z.object({
  caseId: z.number().int().positive(),
  status: caseStatus,
  /** When the change committed, ISO 8601. */
  at: z.string(),
});
export type CaseStatusEvent = z.infer<typeof caseStatusEvent>;

/** A message was written about a case; clients refetch its conversation, timeline and unread counts. */
export const caseMessageEvent = z.object({
  caseId: z.number().int().positive(),
  messageId: z.number().int().positive(),
  side: messageSide,
  /** When the message committed, ISO 8601. */
  at: z.string(),
});
export type CaseMessageEvent = z.infer<typeof caseMessageEvent>;

/** A plan version was uploaded (awaiting_approval) or decided (approved, changes_requested). */
export const casePlanEvent = z.object({
  caseId: z.number().int().positive(),
  planId: z.number().int().positive(),
  version: z.number().int().positive(),
  state: planState,
  /** When the change committed, ISO 8601. */
  at: z.string(),
});
export type CasePlanEvent = z.infer<typeof casePlanEvent>;

/** A case's technician changed; clients refetch the case, its timeline and the lists. */
export const caseAssigneeEvent = z.object({
  caseId: z.number().int().positive(),
  assigneeUserId: z.number().int().positive().nullable(),
  /** When the change committed, ISO 8601. */
  at: z.string(),
});

/** A progress scan of a case was sent (queued) or its fit ended (done, failed); clients refetch the case's progress scans. */
export const caseProgressScanEvent = z.object({
  caseId: z.number().int().positive(),
  progressScanId: z.number().int().positive(),
  state: z.enum(['queued', 'running', 'done', 'failed']),
  /** When the change committed, ISO 8601. */
  at: z.string(),
});
export type CaseProgressScanEvent = z.infer<typeof caseProgressScanEvent>;

export const liveEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('case.status'), data: caseStatusEvent }),
  z.object({ type: z.literal('case.message'), data: caseMessageEvent }),
  z.object({ type: z.literal('case.plan'), data: casePlanEvent }),
  z.object({ type: z.literal('case.assignee'), data: caseAssigneeEvent }),
  z.object({ type: z.literal('case.progressScan'), data: caseProgressScanEvent }),
]);
export type LiveEvent = z.infer<typeof liveEvent>;

/** One event as its Server-Sent Events frame. */
export const sseFrame = (event: LiveEvent) => `event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
