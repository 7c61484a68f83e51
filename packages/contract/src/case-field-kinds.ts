import { z } from 'zod';
import { optionalText, requiredId, requiredMessage, requiredText } from './fields.ts';
import type { CaseFormSection } from './case-form-steps.ts';

/** Option lists of the case form (docs/spec.md section 3), exactly as sent and stored. */
export const caseOptions = {
  gender: ['Male', 'Female', 'Other'],
  arches: ['Both', 'Upper', 'Lower'],
  nature: ['Local', 'Overseas'],
  shipment: ['With aligners', 'Upon request only'],
  passiveAligner: ['Yes', 'No'],
  alignerShipment: ['Batches', 'Complete'],
  midline: ['Improve', 'Maintain', 'Move lower only', 'Move upper only', 'Move both upper and lower'],
  overjet: ['Improve', 'Maintain'],
  overbite: ['Improve', 'Maintain'],
  crossBite: ['Correct', 'Maintain'],
  goal: ['Class-I (if possible)', 'Improve', 'Maintain'],
  ipr: ['No IPR', 'Initial stage IPR', 'As contacts become accessible'],
  auxilliaryType: ['Attachment', 'EBT', 'Both Attachment and EBT'],
  impressionType: ['Digital Impression', 'PVS Impression'],
  imageType: ['Individual', 'Composite'],
  toothNumbering: ['Universal', 'FDI', 'Palmer'],
  preference: ['First preference', 'Second preference', 'Third preference', 'Fourth preference'],
} as const;

// ---------------------------------------------------------------------------- value rules

type Options = readonly [string, ...string[]];

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : value);

/** A required pick from `options`: missing is '{label} is required', anything else '{label} is not valid'. */
const requiredChoice = <T extends Options>(label: string, options: T) =>
  z.preprocess(
    (value) => (isBlank(value) ? undefined : trimmed(value)),
    z.enum(options, {
      error: (issue) => (issue.input === undefined ? requiredMessage(label) : `${label} is not valid`),
    }),
  );

/** An optional pick: blank is stored as ''. */
const optionalChoice = <T extends Options>(label: string, options: T) =>
  z.preprocess(
    (value) => (isBlank(value) ? '' : trimmed(value)),
    z.union([z.literal(''), z.enum(options)], { error: `${label} is not valid` }),
  );

const choiceWithDefault = <T extends Options>(label: string, options: T, fallback: T[number]) =>
  z.preprocess(
    (value) => (isBlank(value) ? fallback : trimmed(value)),
    z.enum(options, { error: `${label} is not valid` }),
  );

/** A comma list of teeth 1-32 ('3, 14,30'), stored as '3,14,30'; empty is 'N/A'. */
export const toothList = (label: string) =>
  z.preprocess(
    (value) => (isBlank(value) || trimmed(value) === 'N/A' ? 'N/A' : value),
    z.string({ error: `${label} is not valid` }).transform((value, ctx) => {
      if (value === 'N/A') return value;
      const teeth = value.split(',').map((tooth) => tooth.trim());
      const isValid = teeth.every((tooth) => /^\d{1,2}$/.test(tooth) && Number(tooth) >= 1 && Number(tooth) <= 32);
      if (!isValid) {
        ctx.addIssue({ code: 'custom', message: `${label} must list tooth numbers 1-32 separated by commas` });
        return z.NEVER;
      }
      return [...new Set(teeth.map(Number))].join(',');
    }),
  );

/** The latest possible "today" anywhere on earth (UTC+14), so no time zone sees a valid birthday as future. */
const latestToday = () => new Date(Date.now() + 14 * 3600_000).toISOString().slice(0, 10);

/** 'YYYY-MM-DD' (a longer ISO timestamp is cut to its date): a real calendar date, not in the future. */
const pastDate = (label: string) =>
  z.preprocess(
    (value) => (isBlank(value) ? undefined : typeof value === 'string' ? value.trim().slice(0, 10) : value),
    z
      .string({ error: requiredMessage(label) })
      .refine((value) => {
        const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
        if (!match) return false;
        const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
        return date.toISOString().slice(0, 10) === value && value >= '1900-01-01';
      }, `${label} is not a valid date`)
      .refine((value) => value <= latestToday(), `${label} must be in the past`),
  );

// ---------------------------------------------------------------------------- kinds of field

export { caseFormSteps, type CaseFormSection } from './case-form-steps.ts';

/** The case detail view's three parts, as the form's steps. */
export type CaseDetailGroup = 'details' | 'treatment' | 'records';

export interface CaseFieldDetail {
  group: CaseDetailGroup;
  /** When it differs from the field's label. */
  label?: string;
  /** Long text takes the whole row. */
  isWide?: boolean;
  /** Shown in one row with this field's value after it (first and last name as Name). */
  joinedWith?: string;
}

/**
 * What every kind of field has: its rule as sent, its type as read, what the form starts
 * with, and how it is shown.
 */
interface FieldKind {
  kind: 'text' | 'date' | 'clinic' | 'choice' | 'rank' | 'teeth';
  label: string;
  schema: z.ZodType;
  answer: z.ZodType;
  isRequired: boolean;
  defaultValue: string | null;
  /** Stored as 'N/A' when sent empty. */
  isNotAvailableWhenEmpty: boolean;
}

export const text = (label: string, max: number, options: { isRequired?: boolean; rows?: number } = {}) =>
  ({
    kind: 'text',
    label,
    schema: options.isRequired ? requiredText(label, max) : optionalText(label, max),
    answer: z.string(),
    isRequired: options.isRequired ?? false,
    defaultValue: '' as string,
    isNotAvailableWhenEmpty: false,
    rows: options.rows,
  }) as const;

export const textOrNotAvailable = (label: string, max: number) =>
  ({
    ...text(label, max),
    schema: optionalText(label, max).transform((value) => value || 'N/A'),
    isNotAvailableWhenEmpty: true,
  }) as const;

export const date = (label: string) =>
  ({
    kind: 'date',
    label,
    schema: pastDate(label),
    answer: z.string(),
    isRequired: true,
    defaultValue: null as string | null,
    isNotAvailableWhenEmpty: false,
  }) as const;

/** A clinic of the case's doctor, by id. */
export const clinic = (label: string) =>
  ({
    kind: 'clinic',
    label,
    schema: requiredId(requiredMessage(label), `${label} is not valid`).refine((id) => id > 0, `${label} is not valid`),
    answer: z.number(),
    isRequired: true,
    defaultValue: null as string | null,
    isNotAvailableWhenEmpty: false,
  }) as const;

type ChoiceLook = { widget: 'select' | 'radio'; formLabel?: string };

/** A required pick; the form may start with one of the options already picked. */
export const requiredPick = <const T extends Options, const D extends T[number] | null = null>(
  label: string,
  options: T,
  look: ChoiceLook & { defaultValue?: D },
) =>
  ({
    kind: 'choice',
    label,
    options,
    ...look,
    schema: requiredChoice(label, options),
    answer: z.string(),
    isRequired: true,
    defaultValue: (look.defaultValue ?? null) as D,
    isNotAvailableWhenEmpty: false,
  }) as const;

/** An optional pick, stored as '' when none. */
export const optionalPick = <const T extends Options, const D extends T[number] | null = null>(
  label: string,
  options: T,
  look: ChoiceLook & { defaultValue?: D },
) =>
  ({
    ...requiredPick(label, options, look),
    schema: optionalChoice(label, options),
    isRequired: false,
  }) as const;

/** A pick that falls back to `defaultValue` when none is sent. */
export const pickWithDefault = <const T extends Options, const D extends T[number]>(
  label: string,
  options: T,
  look: ChoiceLook & { defaultValue: D },
) =>
  ({
    ...requiredPick(label, options, look),
    schema: choiceWithDefault(label, options, look.defaultValue),
    isRequired: false,
  }) as const;

/** One of the ranked preferences: a rank another ranked field holds cannot be chosen again. */
export const rank = (label: string) =>
  ({
    kind: 'rank',
    label,
    options: caseOptions.preference,
    schema: optionalChoice(label, caseOptions.preference),
    answer: z.string(),
    isRequired: false,
    defaultValue: '' as string,
    isNotAvailableWhenEmpty: false,
  }) as const;

/** Teeth picked in the form's numbering, stored in Universal numbers. */
export const teeth = (label: string) =>
  ({
    kind: 'teeth',
    label,
    schema: toothList(label),
    answer: z.string(),
    isRequired: false,
    defaultValue: '' as string,
    isNotAvailableWhenEmpty: true,
  }) as const;

export interface CaseFieldSpec extends FieldKind {
  /** Name in the submission (POST /case/add). */
  sent: string;
  /** Name in the answer (case rows). */
  read: string;
  /** Column in the cases table. */
  column: string;
  /** Where the form shows it; null when the form fills it from another field (`formValueFrom`). */
  section: CaseFormSection | null;
  formValueFrom?: string;
  /** Where the case detail shows it; null when it does not. */
  detail: CaseFieldDetail | null;
  /** Case lists may be sorted by it. */
  isSortable?: boolean;
}
