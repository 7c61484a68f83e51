import { z } from 'zod';

/**
 * Which case mails a user gets, and how (docs/decisions/mail.md § E-mail preferences). Mails about
 * the account itself (activation, password resets, changes to it) are not among them: they
 * always go out at once.
 */
export const mailKinds = ['messages', 'plans', 'status', 'progress'] as const;
export type MailKind = (typeof mailKinds)[number];

export const mailDeliveries = ['immediate', 'digest', 'off'] as const;
export type MailDelivery = (typeof mailDeliveries)[number];

const delivery = (label: string) => z.enum(mailDeliveries, { error: `${label} must be immediate, digest or off` });

const progressDelivery = delivery('Progress scans').meta({
  description: "A progress scan's result ready, or its fit failed (mailed to the lab)",
});

/**
 * PUT /api/account/mail-preferences: each kind's delivery. `progress` came later (issue 42):
 * a client that leaves it out keeps it as it was, immediate before any save.
 */
export const mailPreferences = z.object({
  messages: delivery('Messages'),
  plans: delivery('Plans'),
  status: delivery('Status'),
  progress: progressDelivery.optional(),
});
export type MailPreferences = z.infer<typeof mailPreferences>;
/** Every kind's delivery, as stored and answered. */
export type MailChoices = Record<MailKind, MailDelivery>;

/** GET /api/account/mail-preferences: the caller's choices and the hour (UTC) the daily digest goes out. */
export const mailPreferencesAnswer = mailPreferences.extend({
  progress: progressDelivery,
  digestHourUtc: z.number().int().min(0).max(23),
});
export type MailPreferencesAnswer = z.infer<typeof mailPreferencesAnswer>;
