import { z } from 'zod';
import { optionalText, requiredId, requiredMessage, requiredText } from './fields.ts';

/** Option lists of the case form (portal-spec.md section 3), exactly as sent and stored. */
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

export const caseStatuses = ['new', 'inprogress', 'dispatched', 'delivered'] as const;
export const caseStatus = z.enum(caseStatuses, { error: 'Status is not valid' });
export type CaseStatus = z.infer<typeof caseStatus>;
export const caseStatusFilter = z.enum(['all', ...caseStatuses], { error: 'Status is not valid' });
export type CaseStatusFilter = z.infer<typeof caseStatusFilter>;

export const caseStatusLabels: Record<CaseStatus, string> = {
  new: 'New',
  inprogress: 'In Progress',
  dispatched: 'Dispatched',
  delivered: 'Delivered',
};

/** Teeth 1-32 in the Universal order the Select Tooth picker shows them. */
export const toothNumbers = Array.from({ length: 32 }, (_, index) => index + 1);

// ---------------------------------------------------------------------------- files

/** Single-file fields and the FileType each is stored under. */
export const scanFileTypes = {
  maxillaryScan: 'MaxillaryScan',
  mandibularScan: 'MandibularScan',
  rightBiteScan: 'RightBiteScan',
  leftBiteScan: 'LeftBiteScan',
} as const;

export const photoFileTypes = {
  frontSmiling: 'FrontSmiling',
  facialProfile: 'FacialProfile',
  front: 'Front',
  upperOcclusal: 'UpperOcclusal',
  lowerOcclusal: 'LowerOcclusal',
  rightLateral: 'RightLateral',
  frontal: 'Frontal',
  leftLateral: 'LeftLateral',
  opv: 'OPV',
  leteralCeloform: 'LeteralCeloform',
  compositeImage: 'CompositeImage',
} as const;

/** The one multi-file field. */
export const otherFilesField = 'otherFiles';
export const maxOtherFiles = 30;

export const caseFileTypes = [...Object.values(scanFileTypes), ...Object.values(photoFileTypes), 'OtherFile'] as const;
export type CaseFileType = (typeof caseFileTypes)[number];

export const scanExtensions = ['stl', 'zip', 'rar'] as const;
export const imageExtensions = ['jpg', 'jpeg', 'png'] as const;

export const caseFileMessages = {
  scanType: 'Only STL, ZIP, and RAR files are allowed!',
  photoType: 'Only JPG and PNG files are allowed!',
  otherFileType: 'Only JPG, PNG files are allowed!',
  maxillaryScanRequired: 'Maxillary Scan is required',
  tooLarge: 'The upload is larger than the server allows',
} as const;

// ---------------------------------------------------------------------------- fields

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : value);

/** A required pick from `options`: missing is '{label} is required', anything else '{label} is not valid'. */
const requiredChoice = <T extends readonly [string, ...string[]]>(label: string, options: T) =>
  z.preprocess(
    (value) => (isBlank(value) ? undefined : trimmed(value)),
    z.enum(options, {
      error: (issue) => (issue.input === undefined ? requiredMessage(label) : `${label} is not valid`),
    }),
  );

/** An optional pick: blank is stored as ''. */
const optionalChoice = <T extends readonly [string, ...string[]]>(label: string, options: T) =>
  z.preprocess(
    (value) => (isBlank(value) ? '' : trimmed(value)),
    z.union([z.literal(''), z.enum(options)], { error: `${label} is not valid` }),
  );

const choiceWithDefault = <T extends readonly [string, ...string[]]>(label: string, options: T, fallback: T[number]) =>
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
export const dateOfBirth = z.preprocess(
  (value) => (isBlank(value) ? undefined : typeof value === 'string' ? value.trim().slice(0, 10) : value),
  z
    .string({ error: requiredMessage('Date Of Birth') })
    .refine((value) => {
      const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
      if (!match) return false;
      const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
      return date.toISOString().slice(0, 10) === value && value >= '1900-01-01';
    }, 'Date Of Birth is not a valid date')
    .refine((value) => value <= latestToday(), 'Date Of Birth must be in the past'),
);

const acceptance = z.preprocess(
  (value) => value === true || value === 'true' || value === '1' || value === 1,
  z.literal(true, { error: requiredMessage('Terms and Conditions') }),
);

/** The four ranked preferences, in the order the form shows them. */
export const rankedPreferenceLabels = {
  iprPreference: 'IPR',
  proclination: 'Proclination',
  expansion: 'Expansion',
  extraction: 'Extraction',
} as const;

const rank = (label: string) => optionalChoice(label, caseOptions.preference);

/**
 * POST /case/add, the text part of the multipart body ("Case submission (as sent)").
 * `userId` names the doctor when staff submit; for a doctor the server uses the caller.
 */
export const caseSubmission = z
  .object({
    firstname: requiredText('First Name', 100),
    lastname: requiredText('Last Name', 100),
    dob: dateOfBirth,
    gender: optionalChoice('Gender', caseOptions.gender),
    clinicId: requiredId(requiredMessage('Clinic'), 'Clinic is not valid').refine(
      (id) => id > 0,
      'Clinic is not valid',
    ),
    arches: requiredChoice('Arches To Treat', caseOptions.arches),
    nature: requiredChoice('Nature of Patient', caseOptions.nature),
    shipment: optionalChoice('Retainer Shipment', caseOptions.shipment),
    passiveAligner: optionalChoice('Passive Aligner', caseOptions.passiveAligner),
    alignerShipment: requiredChoice('Aligner Shipment', caseOptions.alignerShipment),
    ipr: optionalChoice('IPR', caseOptions.ipr),
    complaint: requiredText('Chief Complaint', 5000),
    impressionType: requiredChoice('Impression Type', caseOptions.impressionType),
    imageType: choiceWithDefault('Image Type', caseOptions.imageType, 'Individual'),
    midline: requiredChoice('Midline', caseOptions.midline),
    overjet: requiredChoice('Overjet', caseOptions.overjet),
    overbite: requiredChoice('Overbite', caseOptions.overbite),
    crossBite: requiredChoice('Cross Bite', caseOptions.crossBite),
    rightCanine: optionalChoice('Right Canine', caseOptions.goal),
    leftCanine: optionalChoice('Left Canine', caseOptions.goal),
    rightMolar: optionalChoice('Right Molar', caseOptions.goal),
    leftMolar: optionalChoice('Left Molar', caseOptions.goal),
    iprPreference: rank('IPR'),
    proclination: rank('Proclination'),
    expansion: rank('Expansion'),
    extraction: rank('Extraction'),
    iprPrescription: optionalText('IPR Prescription', 500).transform((value) => value || 'N/A'),
    auxilliaryType: optionalChoice('Auxiliary Type', caseOptions.auxilliaryType),
    toothNumbering: optionalChoice('Tooth Numbering System', caseOptions.toothNumbering),
    moveTooth: toothList("Don't Move Tooth"),
    noElastic: toothList('No Elastic'),
    noAttachment: toothList('No Attachment'),
    extractTooth: toothList('Extract Tooth'),
    specialInstruction: optionalText('Special Instructions', 5000),
    userId: z.preprocess(
      (value) => (isBlank(value) ? null : Number(value)),
      z.number({ error: 'Doctor is not valid' }).int('Doctor is not valid').min(0, 'Doctor is not valid').nullable(),
    ),
    termsAndCondition: acceptance,
  })
  .superRefine((form, ctx) => {
    // A rank already used by another of the four cannot be chosen again.
    const usedBy = new Map<string, string>();
    for (const [field, label] of Object.entries(rankedPreferenceLabels)) {
      const value = form[field as keyof typeof rankedPreferenceLabels];
      if (!value) continue;
      const earlier = usedBy.get(value);
      if (earlier)
        ctx.addIssue({ code: 'custom', path: [field], message: `${value} is already chosen for ${earlier}` });
      else usedBy.set(value, label);
    }
  });
export type CaseSubmission = z.infer<typeof caseSubmission>;

export const caseAddResponse = z.object({ message: z.string(), CaseId: z.number(), TrackingNo: z.string() });

// ---------------------------------------------------------------------------- answers

/** "Case (as read)" plus what the lists and the status workflow need. */
export const caseRow = z.object({
  CaseId: z.number(),
  TrackingNo: z.string(),
  FirstName: z.string(),
  LastName: z.string(),
  DOB: z.string(),
  doctorname: z.string(),
  Gender: z.string(),
  ArchesToTreat: z.string(),
  NatureOfPatient: z.string(),
  RetainerShipmentPreference: z.string(),
  PassiveAligners: z.string(),
  AlignerShipmentPreference: z.string(),
  ChiefComplaint: z.string(),
  Midline: z.string(),
  Overjet: z.string(),
  Overbite: z.string(),
  CrossBite: z.string(),
  RightCanine: z.string(),
  LeftCanine: z.string(),
  RightMolar: z.string(),
  LeftMolar: z.string(),
  IPR: z.string(),
  Proclination: z.string(),
  Expansion: z.string(),
  Extraction: z.string(),
  IPRPrescription: z.string(),
  AuxiliaryType: z.string(),
  ToothNumberingSystem: z.string(),
  MoveTooth: z.string(),
  NoElastic: z.string(),
  NoAttachment: z.string(),
  ExtractTooth: z.string(),
  SpecialInstruction: z.string(),
  ImpressionType: z.string(),
  /** The step-1 IPR choice (No IPR, Initial stage IPR, ...); `IPR` is the ranked preference. */
  IPRStage: z.string(),
  ImageType: z.string(),
  Status: caseStatus,
  CreatedAt: z.string(),
  DoctorUserId: z.number(),
  ClinicId: z.number(),
});
export type CaseRow = z.infer<typeof caseRow>;

/** Columns a list may be sorted by: `sort=TrackingNo` ascending, `sort=-CreatedAt` descending. */
export const caseSortColumns = [
  'CaseId',
  'TrackingNo',
  'FirstName',
  'LastName',
  'DOB',
  'doctorname',
  'Gender',
  'ArchesToTreat',
  'NatureOfPatient',
  'ImpressionType',
  'Status',
  'CreatedAt',
] as const;
export type CaseSortColumn = (typeof caseSortColumns)[number];

export const caseListQuery = z.object({
  page: z.coerce
    .number({ error: 'Page is not valid' })
    .int('Page is not valid')
    .min(1, 'Page is not valid')
    .max(1_000_000, 'Page is not valid')
    .optional(),
  pageSize: z.coerce
    .number({ error: 'Page size is not valid' })
    .int('Page size is not valid')
    .min(1, 'Page size is not valid')
    .max(100, 'Page size is at most 100')
    .optional(),
  search: z.string().trim().max(100, 'Search is at most 100 characters').optional(),
  sort: z
    .enum([...caseSortColumns, ...caseSortColumns.map((column) => `-${column}` as const)], {
      error: 'Sort is not valid',
    })
    .optional(),
});
export type CaseListQuery = z.infer<typeof caseListQuery>;

export const caseStats = z.object({
  newcases: z.number(),
  total: z.number(),
  inprogress: z.number(),
  dispatched: z.number(),
  delivered: z.number(),
});
export type CaseStats = z.infer<typeof caseStats>;

export const caseAttachment = z.object({
  FileName: z.string(),
  FilePath: z.string(),
  FileType: z.enum(caseFileTypes),
  FileSize: z.number(),
  Sha256: z.string(),
});
export type CaseAttachment = z.infer<typeof caseAttachment>;

export const caseStatusRequest = z.object({ status: caseStatus });
export type CaseStatusRequest = z.infer<typeof caseStatusRequest>;

export const caseHistoryEntry = z.object({
  FromStatus: caseStatus.nullable(),
  ToStatus: caseStatus,
  ChangedBy: z.number(),
  ChangedByName: z.string(),
  ChangedAt: z.string(),
});
export type CaseHistoryEntry = z.infer<typeof caseHistoryEntry>;

// ---------------------------------------------------------------------------- the form

/**
 * The case form in the browser: the submission's rules, plus the two the form checks before
 * sending: staff must pick the doctor, and a digital impression needs the maxillary scan.
 * Both run even while other fields are invalid, so every message shows at once.
 */
export const caseForm = caseSubmission.safeExtend({ isStaff: z.boolean(), maxillaryScan: z.unknown() }).superRefine(
  (form, ctx) => {
    if (form.isStaff && !form.userId) {
      ctx.addIssue({ code: 'custom', path: ['userId'], message: requiredMessage('Doctor') });
    }
    if (form.impressionType === 'Digital Impression' && !form.maxillaryScan) {
      ctx.addIssue({ code: 'custom', path: ['maxillaryScan'], message: caseFileMessages.maxillaryScanRequired });
    }
  },
  { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
);
