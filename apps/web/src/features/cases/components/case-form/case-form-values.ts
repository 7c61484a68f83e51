import { photoFileTypes, scanFileTypes } from '@portal/contract';
import { createFormContext } from '@mantine/form';
import type { NumberingSystem } from '../../lib/tooth-numbering.ts';
import type { CaseFilePart } from '../../api/add-case.ts';

export type ScanField = keyof typeof scanFileTypes;
export type PhotoField = keyof typeof photoFileTypes;
export type ToothListField = 'moveTooth' | 'noElastic' | 'noAttachment' | 'extractTooth';

export const scanLabels: Record<ScanField, string> = {
  maxillaryScan: 'Maxillary Scan',
  mandibularScan: 'Mandibular Scan',
  rightBiteScan: 'Right Bite Scan',
  leftBiteScan: 'Left Bite Scan',
};

export const photoLabels: Record<PhotoField, string> = {
  frontSmiling: 'Front Smiling',
  facialProfile: 'Facial Profile',
  front: 'Front',
  upperOcclusal: 'Upper Occlusal',
  lowerOcclusal: 'Lower Occlusal',
  rightLateral: 'Right Lateral',
  frontal: 'Frontal',
  leftLateral: 'Left Lateral',
  opv: 'OPV Image',
  leteralCeloform: 'Lateral Cephalogram Image',
  compositeImage: 'Composite Image',
};

export const individualPhotoFields = [
  'frontSmiling',
  'facialProfile',
  'front',
  'upperOcclusal',
  'lowerOcclusal',
  'rightLateral',
  'frontal',
  'leftLateral',
] as const satisfies readonly PhotoField[];
export const xRayFields = ['opv', 'leteralCeloform'] as const satisfies readonly PhotoField[];

export const toothListLabels: Record<ToothListField, string> = {
  moveTooth: "Don't Move Tooth",
  noElastic: 'No Elastic',
  noAttachment: 'No Attachment',
  extractTooth: 'Extract Tooth',
};

/**
 * What the form holds. Choices are null (or '') until picked; tooth lists hold Universal
 * numbers ('3,14'); `ipr` is the IPR prescription choice.
 */
export type CaseFormValues = {
  isStaff: boolean;
  userId: string | null;
  firstname: string;
  lastname: string;
  dob: string | null;
  gender: string | null;
  clinicId: string | null;
  arches: string | null;
  nature: string | null;
  shipment: string | null;
  passiveAligner: string | null;
  alignerShipment: string | null;
  complaint: string;
  midline: string;
  overjet: string;
  overbite: string;
  crossBite: string;
  rightCanine: string | null;
  leftCanine: string | null;
  rightMolar: string | null;
  leftMolar: string | null;
  iprPreference: string;
  proclination: string;
  expansion: string;
  extraction: string;
  ipr: string | null;
  auxilliaryType: string | null;
  toothNumbering: NumberingSystem;
  specialInstruction: string;
  impressionType: string | null;
  imageType: string;
  termsAndCondition: boolean;
  otherFiles: File[];
} & Record<ToothListField, string> &
  Record<ScanField | PhotoField, File | null>;

const noFiles = Object.fromEntries(
  [...Object.keys(scanFileTypes), ...Object.keys(photoFileTypes)].map((field) => [field, null]),
) as Record<ScanField | PhotoField, null>;

/** A fresh form; doctors submit for themselves, staff pick the doctor. */
export function initialCaseFormValues(doctorUserId: number | null): CaseFormValues {
  return {
    isStaff: doctorUserId === null,
    userId: doctorUserId === null ? null : String(doctorUserId),
    firstname: '',
    lastname: '',
    dob: null,
    gender: null,
    clinicId: null,
    arches: null,
    nature: null,
    shipment: null,
    passiveAligner: null,
    alignerShipment: null,
    complaint: '',
    midline: 'Improve',
    overjet: 'Improve',
    overbite: 'Improve',
    crossBite: 'Correct',
    rightCanine: null,
    leftCanine: null,
    rightMolar: null,
    leftMolar: null,
    iprPreference: '',
    proclination: '',
    expansion: '',
    extraction: '',
    ipr: null,
    auxilliaryType: null,
    toothNumbering: 'Universal',
    moveTooth: '',
    noElastic: '',
    noAttachment: '',
    extractTooth: '',
    specialInstruction: '',
    impressionType: null,
    imageType: 'Individual',
    termsAndCondition: false,
    otherFiles: [],
    ...noFiles,
  };
}

// Server field errors use the submission's names (iprPrescription) as well as the form's.
const stepFields: string[][] = [
  [
    'userId',
    'firstname',
    'lastname',
    'dob',
    'gender',
    'clinicId',
    'arches',
    'nature',
    'shipment',
    'passiveAligner',
    'alignerShipment',
    'complaint',
  ],
  [
    'midline',
    'overjet',
    'overbite',
    'crossBite',
    'rightCanine',
    'leftCanine',
    'rightMolar',
    'leftMolar',
    'iprPreference',
    'proclination',
    'expansion',
    'extraction',
    'ipr',
    'iprPrescription',
    'auxilliaryType',
    'toothNumbering',
    'moveTooth',
    'noElastic',
    'noAttachment',
    'extractTooth',
    'specialInstruction',
  ],
];

/** The step (0-2) showing a field; anything not on the first two steps is a record on step 3. */
export function stepOfField(field: string): number {
  const step = stepFields.findIndex((fields) => fields.includes(field));
  return step === -1 ? 2 : step;
}

/** The first step with one of these errors, or null when there are none. */
export function firstStepWithError(errors: Record<string, unknown>): number | null {
  const steps = Object.keys(errors)
    .filter((field) => errors[field])
    .map(stepOfField);
  return steps.length === 0 ? null : Math.min(...steps);
}

/** The photo slots the chosen image type shows (and sends). */
export const visiblePhotoFields = (imageType: string): readonly PhotoField[] => [
  ...(imageType === 'Composite' ? (['compositeImage'] as const) : individualPhotoFields),
  ...xRayFields,
];

/** The files to send, in the spec's field order: scans, the visible photos, then other files. */
export function caseFileParts(values: CaseFormValues): CaseFilePart[] {
  const shown = new Set<string>(visiblePhotoFields(values.imageType));
  const singles = [...Object.keys(scanFileTypes), ...Object.keys(photoFileTypes)] as (ScanField | PhotoField)[];
  return [
    ...singles.flatMap((field) => {
      const file = values[field];
      return file && (field in scanFileTypes || shown.has(field)) ? [{ field, file }] : [];
    }),
    ...values.otherFiles.map((file) => ({ field: 'otherFiles', file })),
  ];
}

/** The text part: the IPR prescription is the IPR choice of step 2. */
export const submissionInput = (values: CaseFormValues) => ({
  ...values,
  iprPrescription: values.ipr ?? '',
});

export const [CaseFormProvider, useCaseFormContext, useCaseForm] = createFormContext<CaseFormValues>();
