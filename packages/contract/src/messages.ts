import { z } from 'zod';

/**
 * A case's conversation between its doctor and the lab (docs/decisions/messages.md § Messages): text,
 * files, who has read what.
 */

/** Which side wrote a message: the case's doctor, or the lab's staff. */
export const messageSides = ['doctor', 'lab'] as const;
export const messageSide = z.enum(messageSides);
export type MessageSide = z.infer<typeof messageSide>;

export const maxMessageLength = 5000;
export const maxMessageFiles = 10;
/** The multipart field of a message's files (several parts of the same name). */
export const messageFilesField = 'files';
/** File name extensions a message may carry; the bytes are checked too. */
export const messageFileExtensions = ['jpg', 'jpeg', 'png', 'pdf', 'stl'] as const;

export const messageMessages = {
  blank: 'Write a message or attach a file',
  tooLong: `A message is at most ${maxMessageLength} characters`,
  fileType: 'Attach JPEG, PNG, PDF or STL files',
  tooManyFiles: `At most ${maxMessageFiles} files per message`,
} as const;

/** The text fields of `POST /api/case/{caseId}/messages`; blank text needs at least one file (checked with the files). */
export const caseMessageRequest = z.object({
  text: z.string().max(maxMessageLength, messageMessages.tooLong).default(''),
});
export type CaseMessageRequest = z.infer<typeof caseMessageRequest>;

export const messageAttachment = z.object({
  fileName: z.string(),
  fileSize: z.number(),
  contentType: z.string(),
  /** Where to download it (same access as the case). */
  url: z.string(),
});
export type MessageAttachment = z.infer<typeof messageAttachment>;

export const caseMessage = z.object({
  messageId: z.number(),
  caseId: z.number(),
  authorUserId: z.number(),
  authorName: z.string(),
  side: messageSide,
  text: z.string(),
  /** When it was written, ISO 8601. */
  at: z.string(),
  attachments: z.array(messageAttachment),
});
export type CaseMessage = z.infer<typeof caseMessage>;

/** A case with messages the caller has not read (`GET /api/case/unread`). */
export const unreadCount = z.object({ caseId: z.number(), unread: z.number().int().positive() });
export type UnreadCount = z.infer<typeof unreadCount>;
