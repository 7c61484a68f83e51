import { z } from 'zod';
import {
  caseFormSteps,
  caseOptions,
  clinic,
  date,
  optionalPick,
  pickWithDefault,
  rank,
  requiredPick,
  teeth,
  text,
  textOrNotAvailable,
  type CaseFieldSpec,
} from './case-field-kinds.ts';

export {
  caseFormSteps,
  caseOptions,
  toothList,
  type CaseDetailGroup,
  type CaseFieldDetail,
  type CaseFormSection,
} from './case-field-kinds.ts';

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
