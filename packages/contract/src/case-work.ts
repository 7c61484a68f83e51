import { z } from 'zod';
import { caseStatuses } from './case-statuses.ts';

// Time in status against the targets, without zod (turnaround.ts), for the dashboard's list.
export { type TurnaroundTargets } from './turnaround.ts';

/**
 * The lab's work on a case (docs/decisions/cases.md § Assignment and internal notes): the
 * technician it is assigned to, and staff-only notes no doctor ever reads.
 */

export const caseWorkMessages = {
  assigneeInvalid: 'The assignee must be a user id, or null to unassign',
  assigneeNotStaff: 'The assignee must be an active staff user with the Dashboard page',
  noteRequired: 'Note text is required',
  noteTooLong: 'A note is at most 5000 characters',
  notesFull: 'A case has at most 500 notes',
} as const;

export const maxNoteLength = 5000;
export const maxNotesPerCase = 500;

/** `PUT /api/case/{caseId}/assignee`: a staff user's UserId, or null to unassign. */
export const caseAssigneeRequest = z.object({
  userId: z
    .number({ error: caseWorkMessages.assigneeInvalid })
    .int(caseWorkMessages.assigneeInvalid)
    .positive(caseWorkMessages.assigneeInvalid)
    .max(2147483647, caseWorkMessages.assigneeInvalid)
    .nullable(),
});
export type CaseAssigneeRequest = z.infer<typeof caseAssigneeRequest>;

/** Who a case can be assigned to: active staff with the Dashboard page. */
export const caseAssignee = z.object({ userId: z.number(), name: z.string() });
/** In the list of assignees, with the username that tells two people of one name apart. */
export const caseAssigneeOption = caseAssignee.extend({ userName: z.string() });
export type CaseAssigneeOption = z.infer<typeof caseAssigneeOption>;
export type CaseAssignee = z.infer<typeof caseAssignee>;

export const caseAssigneeAnswer = z.object({
  message: z.string(),
  assignee: caseAssignee.nullable(),
});

/** `POST /api/case/{caseId}/notes`. */
export const caseNoteRequest = z.object({
  text: z
    .string({ error: caseWorkMessages.noteRequired })
    .trim()
    .min(1, caseWorkMessages.noteRequired)
    .max(maxNoteLength, caseWorkMessages.noteTooLong),
});
export type CaseNoteRequest = z.infer<typeof caseNoteRequest>;

export const caseNote = z.object({
  noteId: z.number(),
  text: z.string(),
  authorId: z.number(),
  authorName: z.string(),
  createdAt: z.string(),
});
export type CaseNote = z.infer<typeof caseNote>;

/** `GET /api/case/turnaround`: the lab's targets, set by TURNAROUND_DAYS. */
export const caseTurnaround = z.object({
  targets: z.partialRecord(z.enum(caseStatuses), z.number()),
});

/** `GET /api/case/doctor-options`: doctors by name for the list's Doctor filter, or one by `userId`. */
export const caseDoctorOptionsQuery = z.object({
  search: z.string().trim().max(100, 'Search is at most 100 characters').optional(),
  userId: z.coerce
    .number({ error: 'User id must be a number' })
    .int('User id must be a whole number')
    .positive('User id must be a whole number')
    .max(2147483647, 'User id is out of range')
    .optional(),
});
export const caseDoctorOption = z.object({ userId: z.number(), name: z.string() });
export type CaseDoctorOption = z.infer<typeof caseDoctorOption>;
