import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import {
  caseFieldList,
  photoFileTypes,
  scanFileTypes,
  stepOfCaseField,
  type CaseFieldKey,
  type CaseFields,
  type CaseOrderType,
  type CaseRow,
  type DoctorPreferenceName,
} from '@portal/contract';
import { createFormContext } from '@mantine/form';
import type { CaseFilePart } from '../../api/add-case.ts';

export type ScanField = keyof typeof scanFileTypes;
export type PhotoField = keyof typeof photoFileTypes;

/** The file fields' labels, shown with `i18n._`. */
export const scanLabels: Record<ScanField, MessageDescriptor> = {
  maxillaryScan: msg`Maxillary Scan`,
  mandibularScan: msg`Mandibular Scan`,
  rightBiteScan: msg`Right Bite Scan`,
  leftBiteScan: msg`Left Bite Scan`,
};

export const photoLabels: Record<PhotoField, MessageDescriptor> = {
  frontSmiling: msg`Front Smiling`,
  facialProfile: msg`Facial Profile`,
  front: msg`Front`,
  upperOcclusal: msg`Upper Occlusal`,
  lowerOcclusal: msg`Lower Occlusal`,
  rightLateral: msg`Right Lateral`,
  frontal: msg`Frontal`,
  leftLateral: msg`Left Lateral`,
  opv: msg`OPV Image`,
  leteralCeloform: msg`Lateral Cephalogram Image`,
  compositeImage: msg`Composite Image`,
};

const individualPhotoFields = [
  'frontSmiling',
  'facialProfile',
  'front',
  'upperOcclusal',
  'lowerOcclusal',
  'rightLateral',
  'frontal',
  'leftLateral',
] as const satisfies readonly PhotoField[];
const xRayFields = ['opv', 'leteralCeloform'] as const satisfies readonly PhotoField[];

/** The fields the form has inputs for; the others are filled from one of these (`formValueFrom`). */
const formFields = caseFieldList.filter((field) => field.section !== null);
type FormFieldKey = { [K in CaseFieldKey]: CaseFields[K]['section'] extends null ? never : K }[CaseFieldKey];

/** What the form holds for a field: choices are null until picked unless the form starts with one. */
type FormValueOf<Field> = Field extends {
  kind: 'choice';
  options: readonly (infer Option)[];
  defaultValue: infer Default;
}
  ? null extends Default
    ? Option | null
    : Option
  : Field extends { defaultValue: infer Default }
    ? Default
    : never;

/** What the form holds: the table's fields by their submission names ('3,14' for teeth, in Universal numbers), the doctor, the terms and the files. */
type FieldValues = { [K in FormFieldKey as CaseFields[K]['sent']]: FormValueOf<CaseFields[K]> };

export type CaseFormValues = FieldValues & {
  picksDoctor: boolean;
  userId: string | null;
  /** The case this one is ordered from, and as what (docs/decisions/cases.md § Orders from a case). */
  parentCaseId: string | null;
  orderType: CaseOrderType | null;
  /**
   * A refinement from a progress scan of the parent (docs/decisions/progress-scans.md § Ordering a
   * refinement): the server copies the scan's files as the order's scans, of these arches.
   */
  progressScanId: string | null;
  progressScanArches: ('upper' | 'lower')[];
  termsAndCondition: boolean;
  otherFiles: File[];
} & Record<ScanField | PhotoField, File | null>;

const noFiles = Object.fromEntries(
  [...Object.keys(scanFileTypes), ...Object.keys(photoFileTypes)].map((field) => [field, null]),
) as Record<ScanField | PhotoField, null>;

const fieldDefaults = Object.fromEntries(formFields.map((field) => [field.sent, field.defaultValue])) as FieldValues;

/**
 * A fresh form for this doctor, or for one to pick (null: staff, an assistant of several doctors). `defaults`: the
 * doctor's saved choices (docs/decisions/case-form.md § Doctor defaults), over the table's own.
 */
export function initialCaseFormValues(
  doctorUserId: number | null,
  defaults: Partial<Record<DoctorPreferenceName, string | undefined>> = {},
): CaseFormValues {
  const saved = Object.fromEntries(Object.entries(defaults).filter(([, value]) => value));
  return {
    picksDoctor: doctorUserId === null,
    userId: doctorUserId === null ? null : String(doctorUserId),
    ...fieldDefaults,
    ...saved,
    parentCaseId: null,
    orderType: null,
    progressScanId: null,
    progressScanArches: [],
    termsAndCondition: false,
    otherFiles: [],
    ...noFiles,
  };
}

/** A field's value as the form holds it, from a case as read: 'N/A' and '' are the empty value. */
function formValueOf(field: (typeof formFields)[number], read: unknown): unknown {
  if (field.kind === 'clinic') return String(read);
  const text = String(read ?? '');
  if (text === '' || (field.isNotAvailableWhenEmpty && text === 'N/A')) return field.defaultValue;
  return text;
}

/**
 * The form of an order from a case: the patient, every prescription field and tooth list of
 * the parent, for its doctor; never its files, which are sent again.
 */
export function orderFormValues(
  base: CaseFormValues,
  parent: CaseRow,
  orderType: CaseOrderType,
  fromScan?: OrderFromScan,
): CaseFormValues {
  const copied = Object.fromEntries(
    formFields.map((field) => [field.sent, formValueOf(field, (parent as Record<string, unknown>)[field.read])]),
  );
  const values = {
    ...base,
    ...copied,
    userId: String(parent.DoctorUserId),
    parentCaseId: String(parent.CaseId),
    orderType,
  } as CaseFormValues;
  if (!fromScan) return values;
  // The off-track teeth first, then the parent's own instructions while they fit the field.
  const earlier = values.specialInstruction.trim();
  const combined = earlier ? `${fromScan.instructions}\n\n${earlier}` : fromScan.instructions;
  return {
    ...values,
    specialInstruction: combined.length <= maxInstructions ? combined : fromScan.instructions,
    progressScanId: String(fromScan.progressScanId),
    progressScanArches: [...fromScan.arches],
  };
}

/** Special Instructions' limit (the contract's text field of 5,000 characters). */
const maxInstructions = 5000;

/** A refinement ordered from a progress scan's result: the scan, its arches, and the instructions naming its off-track teeth. */
export interface OrderFromScan {
  progressScanId: number;
  arches: readonly ('upper' | 'lower')[];
  instructions: string;
}

/** The scan fields a progress scan fills in a refinement from it: its upper the maxillary, its lower the mandibular. */
export const scanFieldsFromProgressScan = (arches: readonly ('upper' | 'lower')[]): ScanField[] =>
  arches.map((arch) => (arch === 'upper' ? 'maxillaryScan' : 'mandibularScan'));

// Server field errors use the submission's names (iprPrescription) as well as the form's.
const stepOfName = new Map<string, number>([
  ['userId', 0],
  ['parentCaseId', 0],
  ['orderType', 0],
  ...caseFieldList.map((field) => [field.sent, stepOfCaseField(field)] as const),
]);

/** The step (0-2) showing a field; the files and the terms are on step 3. */
export function stepOfField(field: string): number {
  return stepOfName.get(field) ?? 2;
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

/** The text part: a field the form has no input for takes the value of the one it is filled from. */
export const submissionInput = (values: CaseFormValues) => ({
  ...values,
  ...Object.fromEntries(
    caseFieldList.flatMap((field) =>
      'formValueFrom' in field ? [[field.sent, (values as Record<string, unknown>)[field.formValueFrom] ?? '']] : [],
    ),
  ),
});

export const [CaseFormProvider, useCaseFormContext, useCaseForm] = createFormContext<CaseFormValues>();
