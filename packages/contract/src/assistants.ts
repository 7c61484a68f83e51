import { z } from 'zod';
import { email, nameText } from './fields.ts';

/** How many assistants one doctor may have at once (revoked ones do not count). */
export const maxAssistantsPerDoctor = 20;

/** How long a doctor waits before mailing the same assistant another invitation. */
export const assistantInvitePauseMinutes = 5;

/**
 * How many invitation mails one doctor may send in 24 hours, to new, existing, revoked or
 * re-invited assistants alike: each is a mail to an address the doctor chose (issue 40).
 */
export const assistantInvitationsPerDay = 20;

export const assistantMessages = {
  invited: 'Invitation sent',
  resent: 'A new invitation was sent',
  linked: 'Assistant added; they were told by e-mail',
  alreadyLinked: 'This assistant already works for you',
  tooMany: `You can have at most ${maxAssistantsPerDoctor} assistants; revoke one first`,
  notAssistantEmail: 'This e-mail cannot be used for an assistant; please use another address',
  revoked: 'Assistant removed',
  tooSoon: `An invitation was sent to this assistant less than ${assistantInvitePauseMinutes} minutes ago; please wait before sending another`,
  /** `at`: when the oldest invitation of the last 24 hours leaves the count, rounded up to the minute (`2026-12-06 10:43 UTC`). */
  tooManyToday: (at: string) =>
    `You have sent ${assistantInvitationsPerDay} invitations in the last 24 hours; you can invite again after ${at}`,
} as const;

/** POST /api/doctor/assistants: the doctor invites an assistant by e-mail. */
export const assistantInviteRequest = z.object({
  // The e-mail is the assistant's username, which signs in at up to 100 characters.
  email: email.max(100, 'Email must be at most 100 characters'),
  firstName: nameText('First Name'),
  lastName: nameText('Last Name'),
});
export type AssistantInviteRequest = z.infer<typeof assistantInviteRequest>;

/** One of the signed-in doctor's assistants. */
export const assistantRow = z.object({
  userId: z.number(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  /** When the doctor invited (or last re-invited) them, ISO 8601 UTC. */
  invitedAt: z.string(),
  /** 'invited' until they have set a password from an invitation's link, 'active' after. */
  state: z.enum(['invited', 'active']),
});
export type AssistantRow = z.infer<typeof assistantRow>;

/** One of the doctors an assistant works for: Add Case names the case's doctor from these. */
export const servedDoctorRow = z.object({
  userId: z.number(),
  doctorId: z.number(),
  name: z.string(),
});
export type ServedDoctorRow = z.infer<typeof servedDoctorRow>;
