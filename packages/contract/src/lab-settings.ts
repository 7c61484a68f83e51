import { z } from 'zod';
import { caseStatuses } from './case-statuses.ts';
import { isTimeZone } from './time-zone-names.ts';

// Without zod (time-zone-names.ts), for the signed-in shell.

/**
 * The lab's settings (docs/decisions/settings.md): one row in the database, read by the server
 * through one service and changed by the administrator on the Settings screen. Their first values
 * come from the environment variables of the first start (TURNAROUND_DAYS, PLAN_STEP_LIMIT_MM,
 * PLAN_STEP_LIMIT_DEGREES, MAIL_DIGEST_HOUR); these are the defaults when those are unset too.
 */

/** Where a courier's tracking-link pattern takes the tracking number. */
export const trackingNumberPlaceholder = '{trackingNumber}';

/** A courier the lab ships with: its name as staff type it at dispatch, and its tracking page. */
export interface Courier {
  name: string;
  trackingUrl: string;
}

const decimal = (label: string, min: number, max: number, unit: string) =>
  z
    .number({ error: `${label} must be a number` })
    .min(min, `${label} must be from ${min} to ${max} ${unit}`)
    .max(max, `${label} must be from ${min} to ${max} ${unit}`);

export const timeZone = z
  .string({ error: 'Time zone must be a time zone name such as Europe/Berlin' })
  .trim()
  .refine(isTimeZone, 'Time zone must be a time zone name such as Europe/Berlin or UTC');

const courier = z.object({
  name: z
    .string({ error: 'Courier name is required' })
    .trim()
    .min(1, 'Courier name is required')
    .max(60, 'Courier name is at most 60 characters'),
  trackingUrl: z
    .string({ error: 'Tracking link is required' })
    .trim()
    .max(500, 'Tracking link is at most 500 characters')
    .refine((value) => {
      try {
        const url = new URL(value.replaceAll(trackingNumberPlaceholder, 'X'));
        return url.protocol === 'https:' || url.protocol === 'http:';
      } catch {
        return false;
      }
    }, 'Tracking link must be an https:// or http:// address')
    .refine(
      (value) => value.includes(trackingNumberPlaceholder),
      `Tracking link must contain ${trackingNumberPlaceholder} where the tracking number goes`,
    ),
});

const turnaroundDays = z
  .number({ error: 'Turnaround days must be a number' })
  .int('Turnaround days must be a whole number')
  .min(1, 'Turnaround days must be from 1 to 365')
  .max(365, 'Turnaround days must be from 1 to 365');

/** `GET /api/settings` and `PUT /api/settings`: every setting, sent whole. */
export const labSettings = z.object({
  /** Days a case may stay in each status before it is overdue; a status left out has no target. */
  turnaroundDays: z.partialRecord(z.enum(caseStatuses, { error: 'Status is not valid' }), turnaroundDays),
  /** A tooth moving more than this in one stage is over the lab's limit (the plan's movement table, its findings). */
  planStepLimits: z.object({
    stepMm: decimal('Step limit', 0.01, 5, 'mm'),
    stepDeg: decimal('Step limit', 0.1, 45, 'degrees'),
  }),
  /** A tooth of a progress scan this far from its planned place is off track (issue 42). */
  offTrackThresholds: z.object({
    offsetMm: decimal('Off-track distance', 0.05, 5, 'mm'),
    angleDeg: decimal('Off-track angle', 0.1, 45, 'degrees'),
  }),
  /** The hour (UTC) of the daily digest of case mails. */
  digestHourUtc: z
    .number({ error: 'Digest hour must be a number' })
    .int('Digest hour must be a whole hour from 0 to 23')
    .min(0, 'Digest hour must be a whole hour from 0 to 23')
    .max(23, 'Digest hour must be a whole hour from 0 to 23'),
  /** The lab's time zone: the times of users who chose none. */
  timeZone,
  couriers: z
    .array(courier, { error: 'Couriers must be a list' })
    .max(20, 'At most 20 couriers')
    .refine(
      (list) => new Set(list.map((item) => item.name.toLowerCase())).size === list.length,
      'Each courier is named once',
    ),
});
export type LabSettings = z.infer<typeof labSettings>;
export type PlanStepLimits = LabSettings['planStepLimits'];

/** The settings of a lab whose first start set none of the environment variables. */
export const defaultLabSettings: LabSettings = {
  turnaroundDays: { new: 2, inprogress: 10, dispatched: 7 },
  planStepLimits: { stepMm: 0.25, stepDeg: 2 },
  offTrackThresholds: { offsetMm: 0.5, angleDeg: 2 },
  digestHourUtc: 7,
  timeZone: 'UTC',
  couriers: [
    {
      name: 'DHL',
      trackingUrl: `https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=${trackingNumberPlaceholder}`,
    },
    { name: 'UPS', trackingUrl: `https://www.ups.com/track?tracknum=${trackingNumberPlaceholder}` },
    { name: 'FedEx', trackingUrl: `https://www.fedex.com/fedextrack/?trknbr=${trackingNumberPlaceholder}` },
    { name: 'USPS', trackingUrl: `https://tools.usps.com/go/TrackConfirmAction?tLabels=${trackingNumberPlaceholder}` },
  ],
};

/** `GET /api/account/time-zone`: the caller's own time zone (null: none chosen yet) and the lab's. */
export const accountTimeZoneAnswer = z.object({ timeZone: timeZone.nullable(), labTimeZone: timeZone });
export type AccountTimeZoneAnswer = z.infer<typeof accountTimeZoneAnswer>;

/** `PUT /api/account/time-zone`. */
export const accountTimeZone = z.object({ timeZone });
