import { z } from 'zod';

/**
 * The caller's inbox (docs/decisions/messages.md § Inbox): what waits for them across cases. A doctor
 * gets the lab's unread messages and the plans awaiting their approval; staff the doctors'
 * unread messages and the plans whose doctor asked for changes the lab has not answered.
 */
export const inboxItemKinds = ['message', 'plan'] as const;
export const inboxItemKind = z.enum(inboxItemKinds);
export type InboxItemKind = z.infer<typeof inboxItemKind>;

/** A page holds at most this many items, newest first; the counts are of every one. */
export const maxInboxItems = 100;
/** A message's or a change request's first characters, as the inbox shows them. */
export const inboxExcerptLength = 160;

export const inboxItem = z.object({
  kind: inboxItemKind,
  /** The message's id, or the plan version's. */
  itemId: z.number(),
  caseId: z.number(),
  trackingNo: z.string(),
  patientName: z.string(),
  /** When the message was written, the version uploaded or the changes requested, ISO 8601. */
  at: z.string(),
  /** The message's first characters (empty for files alone), or the doctor's change request. */
  excerpt: z.string(),
  /** The plan version's number; null for a message. */
  version: z.number().nullable(),
});
export type InboxItem = z.infer<typeof inboxItem>;

/**
 * Where a page ends: its last item's time, kind and id ("2026-11-28T08:00:00.123Z~message~42").
 * Items are in that order (newest first; at the same millisecond messages before plans, then
 * the higher id first), so a page never repeats nor skips one.
 */
export const inboxCursor = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z~(message|plan)~\d{1,10}$/, 'Not a page of the inbox')
  .refine((cursor) => {
    const [at, , id] = cursor.split('~');
    return !Number.isNaN(Date.parse(at!)) && Number(id) <= 2147483647;
  }, 'Not a page of the inbox');

export const inboxQuery = z.object({
  /** The page after this item; the first page without it. */
  after: inboxCursor.optional(),
});
export type InboxQuery = z.infer<typeof inboxQuery>;

export const inboxAnswer = z.object({
  items: inboxItem.array(),
  /** The `after` of the next page; null on the last. */
  next: inboxCursor.nullable(),
  unreadMessages: z.number().int().nonnegative(),
  plansAwaiting: z.number().int().nonnegative(),
});
export type InboxAnswer = z.infer<typeof inboxAnswer>;
