import { z } from 'zod';
import { caseStatus } from './cases.ts';
import { messageSide } from './messages.ts';

/**
 * What `GET /api/events` streams (Server-Sent Events). Each kind is one `event:` name with
 * its JSON `data:`; events say only what changed and which record, never patient data: a
 * client refetches what it shows, through the routes that check who may read it.
 * New kinds (messages, plan events) are added as further members of `liveEvent`.
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

export const liveEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('case.status'), data: caseStatusEvent }),
  z.object({ type: z.literal('case.message'), data: caseMessageEvent }),
]);
export type LiveEvent = z.infer<typeof liveEvent>;
export type LiveEventType = LiveEvent['type'];

/** The `event:` names a client listens for, one per member of `liveEvent`. */
export const liveEventTypes = liveEvent.options.map((option) => option.shape.type.value) as LiveEventType[];

/** One event as its Server-Sent Events frame. */
export const sseFrame = (event: LiveEvent) => `event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
