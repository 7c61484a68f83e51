import { z } from 'zod';
import { optionalText, requiredId, requiredMessage, requiredText } from './fields.ts';

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

export const dateOfBirth = pastDate('Date Of Birth');

// ---------------------------------------------------------------------------- kinds of field

/**
 * The form's layout: each step shows its sections in this order, and a field's section
 * says on which step it is shown and checked.
 */
export const caseFormSteps = [
  { label: 'Case Details', sections: ['patient', 'complaint'] },
  {
    label: 'Treatment Instructions',
    sections: ['correction', 'goals', 'preferences', 'prescription', 'numbering', 'teeth', 'instructions'],
  },
  { label: "Patients's Records", sections: ['impression', 'images'] },
] as const;
export type CaseFormSection = (typeof caseFormSteps)[number]['sections'][number];

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

const text = (label: string, max: number, options: { isRequired?: boolean; rows?: number } = {}) =>
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

const textOrNotAvailable = (label: string, max: number) =>
  ({
    ...text(label, max),
    schema: optionalText(label, max).transform((value) => value || 'N/A'),
    isNotAvailableWhenEmpty: true,
  }) as const;

const date = (label: string) =>
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
const clinic = (label: string) =>
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
const requiredPick = <const T extends Options, const D extends T[number] | null = null>(
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
const optionalPick = <const T extends Options, const D extends T[number] | null = null>(
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
const pickWithDefault = <const T extends Options, const D extends T[number]>(
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
const rank = (label: string) =>
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
const teeth = (label: string) =>
  ({
    kind: 'teeth',
    label,
    schema: toothList(label),
    answer: z.string(),
    isRequired: false,
    defaultValue: '' as string,
    isNotAvailableWhenEmpty: true,
  }) as const;

interface CaseFieldSpec extends FieldKind {
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

// ---------------------------------------------------------------------------- the table

/**
 * Every field of a case, once: keyed by its property in the Drizzle table (apps/server/src/db/schema.ts).
 * The submission and answer schemas, the form, the detail view and the server's row mapping
 * all come from here; the order is the submission's, and within a section or detail group,
 * the order shown.
 */
export const caseFields = {
  firstName: {
    sent: 'firstname',
    read: 'FirstName',
    column: 'first_name',
    section: 'patient',
    detail: { group: 'details', label: 'Name', joinedWith: 'lastName' },
    isSortable: true,
    ...text('First Name', 100, { isRequired: true }),
  },
  lastName: {
    sent: 'lastname',
    read: 'LastName',
    column: 'last_name',
    section: 'patient',
    detail: null,
    isSortable: true,
    ...text('Last Name', 100, { isRequired: true }),
  },
  dob: {
    sent: 'dob',
    read: 'DOB',
    column: 'dob',
    section: 'patient',
    detail: { group: 'details', label: 'Date of Birth' },
    isSortable: true,
    ...date('Date Of Birth'),
  },
  gender: {
    sent: 'gender',
    read: 'Gender',
    column: 'gender',
    section: 'patient',
    detail: { group: 'details' },
    isSortable: true,
    ...optionalPick('Gender', caseOptions.gender, { widget: 'select' }),
  },
  clinicId: {
    sent: 'clinicId',
    read: 'ClinicId',
    column: 'clinic_id',
    section: 'patient',
    detail: null,
    ...clinic('Clinic'),
  },
  arches: {
    sent: 'arches',
    read: 'ArchesToTreat',
    column: 'arches',
    section: 'patient',
    detail: { group: 'details' },
    isSortable: true,
    ...requiredPick('Arches To Treat', caseOptions.arches, { widget: 'select' }),
  },
  nature: {
    sent: 'nature',
    read: 'NatureOfPatient',
    column: 'nature',
    section: 'patient',
    detail: { group: 'details' },
    isSortable: true,
    ...requiredPick('Nature of Patient', caseOptions.nature, { widget: 'select' }),
  },
  shipment: {
    sent: 'shipment',
    read: 'RetainerShipmentPreference',
    column: 'shipment',
    section: 'patient',
    detail: { group: 'details', label: 'Retainer Shipment Preference' },
    ...optionalPick('Retainer Shipment', caseOptions.shipment, { widget: 'select' }),
  },
  passiveAligner: {
    sent: 'passiveAligner',
    read: 'PassiveAligners',
    column: 'passive_aligner',
    section: 'patient',
    detail: { group: 'details', label: 'Passive Aligners' },
    ...optionalPick('Passive Aligner', caseOptions.passiveAligner, { widget: 'select' }),
  },
  alignerShipment: {
    sent: 'alignerShipment',
    read: 'AlignerShipmentPreference',
    column: 'aligner_shipment',
    section: 'patient',
    detail: { group: 'details', label: 'Aligner Shipment Preference' },
    ...requiredPick('Aligner Shipment', caseOptions.alignerShipment, { widget: 'select' }),
  },
  /** The IPR stage (No IPR, Initial stage IPR, ...), picked as the IPR Prescription; `IPR` is the ranked preference. */
  ipr: {
    sent: 'ipr',
    read: 'IPRStage',
    column: 'ipr',
    section: 'prescription',
    detail: null,
    ...optionalPick('IPR', caseOptions.ipr, { widget: 'select', formLabel: 'IPR Prescription' }),
  },
  complaint: {
    sent: 'complaint',
    read: 'ChiefComplaint',
    column: 'complaint',
    section: 'complaint',
    detail: { group: 'details', isWide: true },
    ...text('Chief Complaint', 5000, { isRequired: true, rows: 5 }),
  },
  impressionType: {
    sent: 'impressionType',
    read: 'ImpressionType',
    column: 'impression_type',
    section: 'impression',
    detail: { group: 'records' },
    isSortable: true,
    ...requiredPick('Impression Type', caseOptions.impressionType, { widget: 'radio' }),
  },
  imageType: {
    sent: 'imageType',
    read: 'ImageType',
    column: 'image_type',
    section: 'images',
    detail: null,
    ...pickWithDefault('Image Type', caseOptions.imageType, { widget: 'radio', defaultValue: 'Individual' }),
  },
  midline: {
    sent: 'midline',
    read: 'Midline',
    column: 'midline',
    section: 'correction',
    detail: { group: 'treatment' },
    ...requiredPick('Midline', caseOptions.midline, { widget: 'radio', defaultValue: 'Improve' }),
  },
  overjet: {
    sent: 'overjet',
    read: 'Overjet',
    column: 'overjet',
    section: 'correction',
    detail: { group: 'treatment' },
    ...requiredPick('Overjet', caseOptions.overjet, { widget: 'radio', defaultValue: 'Improve' }),
  },
  overbite: {
    sent: 'overbite',
    read: 'Overbite',
    column: 'overbite',
    section: 'correction',
    detail: { group: 'treatment' },
    ...requiredPick('Overbite', caseOptions.overbite, { widget: 'radio', defaultValue: 'Improve' }),
  },
  crossBite: {
    sent: 'crossBite',
    read: 'CrossBite',
    column: 'cross_bite',
    section: 'correction',
    detail: { group: 'treatment' },
    ...requiredPick('Cross Bite', caseOptions.crossBite, { widget: 'radio', defaultValue: 'Correct' }),
  },
  rightCanine: {
    sent: 'rightCanine',
    read: 'RightCanine',
    column: 'right_canine',
    section: 'goals',
    detail: { group: 'treatment' },
    ...optionalPick('Right Canine', caseOptions.goal, { widget: 'select' }),
  },
  leftCanine: {
    sent: 'leftCanine',
    read: 'LeftCanine',
    column: 'left_canine',
    section: 'goals',
    detail: { group: 'treatment' },
    ...optionalPick('Left Canine', caseOptions.goal, { widget: 'select' }),
  },
  rightMolar: {
    sent: 'rightMolar',
    read: 'RightMolar',
    column: 'right_molar',
    section: 'goals',
    detail: { group: 'treatment' },
    ...optionalPick('Right Molar', caseOptions.goal, { widget: 'select' }),
  },
  leftMolar: {
    sent: 'leftMolar',
    read: 'LeftMolar',
    column: 'left_molar',
    section: 'goals',
    detail: { group: 'treatment' },
    ...optionalPick('Left Molar', caseOptions.goal, { widget: 'select' }),
  },
  iprPreference: {
    sent: 'iprPreference',
    read: 'IPR',
    column: 'ipr_preference',
    section: 'preferences',
    detail: { group: 'treatment' },
    ...rank('IPR'),
  },
  proclination: {
    sent: 'proclination',
    read: 'Proclination',
    column: 'proclination',
    section: 'preferences',
    detail: { group: 'treatment' },
    ...rank('Proclination'),
  },
  expansion: {
    sent: 'expansion',
    read: 'Expansion',
    column: 'expansion',
    section: 'preferences',
    detail: { group: 'treatment' },
    ...rank('Expansion'),
  },
  extraction: {
    sent: 'extraction',
    read: 'Extraction',
    column: 'extraction',
    section: 'preferences',
    detail: { group: 'treatment' },
    ...rank('Extraction'),
  },
  /** Free text on the wire; the form sends its IPR Prescription pick (`ipr`) here too. */
  iprPrescription: {
    sent: 'iprPrescription',
    read: 'IPRPrescription',
    column: 'ipr_prescription',
    section: null,
    formValueFrom: 'ipr',
    detail: { group: 'treatment' },
    ...textOrNotAvailable('IPR Prescription', 500),
  },
  auxiliaryType: {
    sent: 'auxilliaryType',
    read: 'AuxiliaryType',
    column: 'auxiliary_type',
    section: 'prescription',
    detail: { group: 'treatment' },
    ...optionalPick('Auxiliary Type', caseOptions.auxilliaryType, {
      widget: 'select',
      formLabel: 'Auxiliary Type (if required)',
    }),
  },
  toothNumbering: {
    sent: 'toothNumbering',
    read: 'ToothNumberingSystem',
    column: 'tooth_numbering',
    section: 'numbering',
    detail: { group: 'treatment', label: 'Tooth Numbering' },
    ...optionalPick('Tooth Numbering System', caseOptions.toothNumbering, {
      widget: 'radio',
      formLabel: 'Tooth Numbering',
      defaultValue: 'Universal',
    }),
  },
  moveTooth: {
    sent: 'moveTooth',
    read: 'MoveTooth',
    column: 'move_tooth',
    section: 'teeth',
    detail: { group: 'treatment' },
    ...teeth("Don't Move Tooth"),
  },
  noElastic: {
    sent: 'noElastic',
    read: 'NoElastic',
    column: 'no_elastic',
    section: 'teeth',
    detail: { group: 'treatment' },
    ...teeth('No Elastic'),
  },
  noAttachment: {
    sent: 'noAttachment',
    read: 'NoAttachment',
    column: 'no_attachment',
    section: 'teeth',
    detail: { group: 'treatment' },
    ...teeth('No Attachment'),
  },
  extractTooth: {
    sent: 'extractTooth',
    read: 'ExtractTooth',
    column: 'extract_tooth',
    section: 'teeth',
    detail: { group: 'treatment' },
    ...teeth('Extract Tooth'),
  },
  specialInstruction: {
    sent: 'specialInstruction',
    read: 'SpecialInstruction',
    column: 'special_instruction',
    section: 'instructions',
    detail: { group: 'treatment', isWide: true },
    ...text('Special Instructions', 5000, { rows: 4 }),
  },
} as const satisfies Record<string, CaseFieldSpec>;

// ---------------------------------------------------------------------------- derived

export type CaseFields = typeof caseFields;
export type CaseFieldKey = keyof CaseFields;
export type CaseField = CaseFields[CaseFieldKey];
/** Name of a field in the submission (and so in the form). */
export type CaseFieldName = CaseField['sent'];

/** The table as a list, in its order. */
export const caseFieldList = (Object.keys(caseFields) as CaseFieldKey[]).map((key) => ({ key, ...caseFields[key] }));
export type CaseFieldEntry = (typeof caseFieldList)[number];

export const fieldsOfKind = <K extends CaseField['kind']>(kind: K) =>
  caseFieldList.filter((field): field is Extract<CaseFieldEntry, { kind: K }> => field.kind === kind);

/** The step (0-2) whose form shows a field: its section's, or that of the field it is filled from. */
export function stepOfCaseField(field: CaseFieldEntry): number {
  const shownAs = field.section ?? caseFieldList.find((other) => other.sent === field.formValueFrom)?.section;
  return caseFormSteps.findIndex((step) => (step.sections as readonly string[]).includes(shownAs ?? ''));
}

type SubmissionShape = { [K in CaseFieldKey as CaseFields[K]['sent']]: CaseFields[K]['schema'] };
type AnswerShape = { [K in CaseFieldKey as CaseFields[K]['read']]: CaseFields[K]['answer'] };

export const caseFieldSubmissionShape = Object.fromEntries(
  caseFieldList.map((field) => [field.sent, field.schema]),
) as SubmissionShape;
export const caseFieldAnswerShape = Object.fromEntries(
  caseFieldList.map((field) => [field.read, field.answer]),
) as AnswerShape;

type SortableField = { [K in CaseFieldKey]: CaseFields[K] extends { isSortable: true } ? K : never }[CaseFieldKey];
export type SortableCaseField = CaseFields[SortableField]['read'];
export const sortableCaseFields = caseFieldList
  .filter((field) => 'isSortable' in field && field.isSortable)
  .map((field) => field.read as SortableCaseField);

/** A submission's field values keyed as in the table, ready for the cases table. */
export type CaseFieldValues = {
  [K in CaseFieldKey]: z.output<CaseFields[K]['schema']>;
};

/** The table's fields of a parsed submission. */
export type CaseFieldSubmission = { [K in CaseFieldKey as CaseFields[K]['sent']]: z.output<CaseFields[K]['schema']> };

export function caseFieldValues(submission: CaseFieldSubmission): CaseFieldValues {
  return Object.fromEntries(caseFieldList.map((field) => [field.key, submission[field.sent]])) as CaseFieldValues;
}
