import { z } from 'zod';
import { email, requiredText } from './fields.ts';

/** How many assistants one doctor may have at once (revoked ones do not count). */
export const maxAssistantsPerDoctor = 20;

/** How long a doctor waits before mailing the same assistant another invitation. */
export const assistantInvitePauseMinutes = 5;

export const assistantMessages = {
  invited: 'Invitation sent',
  resent: 'A new invitation was sent',
  linked: 'Assistant added; they were told by e-mail',
  alreadyLinked: 'This assistant already works for you',
  tooMany: `You can have at most ${maxAssistantsPerDoctor} assistants; revoke one first`,
  notAssistantEmail: 'This e-mail cannot be used for an assistant; please use another address',
  revoked: 'Assistant removed',
  tooSoon: `An invitation was sent to this assistant less than ${assistantInvitePauseMinutes} minutes ago; please wait before sending another`,
} as const;

/** POST /api/doctor/assistants: the doctor invites an assistant by e-mail. */
export const assistantInviteRequest = z.object({
  // The e-mail is the assistant's username, which signs in at up to 100 characters.
  email: email.max(100, 'Email must be at most 100 characters'),
  firstName: requiredText('First Name', 100),
  lastName: requiredText('Last Name', 100),
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
