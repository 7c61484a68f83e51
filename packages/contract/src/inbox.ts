import { z } from 'zod';

/**
 * The caller's inbox (docs/decisions.md § Inbox): what waits for them across cases. A doctor
 * gets the lab's unread messages and the plans awaiting their approval; staff the doctors'
 * unread messages and the plans whose doctor asked for changes the lab has not answered.
 */
export const inboxItemKinds = ['message', 'plan'] as const;
export const inboxItemKind = z.enum(inboxItemKinds);
export type InboxItemKind = z.infer<typeof inboxItemKind>;

/** The answer holds at most this many items, newest first; the counts are of every one. */
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

export const inboxAnswer = z.object({
  items: inboxItem.array(),
  unreadMessages: z.number().int().nonnegative(),
  plansAwaiting: z.number().int().nonnegative(),
});
export type InboxAnswer = z.infer<typeof inboxAnswer>;
