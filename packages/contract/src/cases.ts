import { z } from 'zod';
import { caseFieldAnswerShape, caseFieldSubmissionShape, fieldsOfKind } from './case-fields.ts';
import { requiredMessage } from './fields.ts';
import { messageSide } from './messages.ts';
import { caseStatuses, type CaseStatus } from './case-statuses.ts';
import { planState } from './plans.ts';
import { caseAssigneeFilters, caseSortColumns, defaultPageSize, maxPageSize } from './case-list.ts';

// The list's plain values live apart from the schemas (case-list.ts), for the dashboard.
export {
  caseSortColumns,
  defaultPageSize,
  maxPageSize,
  sortableCaseFieldColumns,
  type CaseAssigneeFilter,
  type CaseSortColumn,
} from './case-list.ts';

export * from './case-fields.ts';

export const caseStatus = z.enum(caseStatuses, { error: 'Status is not valid' });
export const caseStatusFilter = z.enum(['all', ...caseStatuses], { error: 'Status is not valid' });
export type CaseStatusFilter = z.infer<typeof caseStatusFilter>;

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

/**
 * The spec's names of the named file groups (docs/spec.md, Case attachment); the rest read as
 * words, each written out so the catalogs hold it (the web app shows it in the reader's language).
 */
const fileTypeLabels: Partial<Record<CaseFileType, string>> = {
  FrontSmiling: 'Front Smiling',
  FacialProfile: 'Facial Profile',
  Front: 'Front',
  UpperOcclusal: 'Upper Occlusal',
  LowerOcclusal: 'Lower Occlusal',
  RightLateral: 'Right Lateral',
  Frontal: 'Frontal',
  LeftLateral: 'Left Lateral',
  CompositeImage: 'Composite Image',
  OtherFile: 'Other File',
  OPV: 'X-Ray OPG',
  LeteralCeloform: 'X-Ray CEPH',
  MaxillaryScan: 'STL-1',
  MandibularScan: 'STL-2',
  RightBiteScan: 'BITE-1',
  LeftBiteScan: 'BITE-2',
};

/** A file type as people read it: 'OPV' -> 'X-Ray OPG', 'FrontSmiling' -> 'Front Smiling'. */
export const caseFileTypeLabel = (fileType: string) =>
  fileTypeLabels[fileType as CaseFileType] ?? fileType.replace(/([a-z])([A-Z])/g, '$1 $2');

export const scanExtensions = ['stl', 'zip', 'rar'] as const;
export const imageExtensions = ['jpg', 'jpeg', 'png'] as const;

export const caseFileMessages = {
  scanType: 'Only STL, ZIP, and RAR files are allowed!',
  photoType: 'Only JPG and PNG files are allowed!',
  otherFileType: 'Only JPG, PNG files are allowed!',
  maxillaryScanRequired: 'Maxillary Scan is required',
  tooLarge: 'The upload is larger than the server allows',
  tooManyOtherFiles: `At most ${maxOtherFiles} other files`,
  imageUnreadable: 'The image could not be read: send the photo as a JPG or PNG file',
  pdfActiveContent: 'PDFs with scripts, automatic actions or attached files are not accepted: print it to a new PDF',
  pdfUnreadable: 'The PDF could not be checked (encrypted or damaged): print it to a new PDF',
} as const;

// ---------------------------------------------------------------------------- submission

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

const acceptance = z.preprocess(
  (value) => value === true || value === 'true' || value === '1' || value === 1,
  z.literal(true, { error: requiredMessage('Terms and Conditions') }),
);

// ---------------------------------------------------------------------------- orders from a case

/** A new case ordered from an earlier one (docs/decisions/cases.md § Orders from a case). */
export const caseOrderTypes = ['Refinement', 'Retainer', 'Replacement'] as const;
export const caseOrderType = z.enum(caseOrderTypes, { error: 'Order type is not valid' });
export type CaseOrderType = z.infer<typeof caseOrderType>;

export const caseOrderMessages = {
  parentInvalid: 'Parent case is not valid',
  together: 'Parent case and order type go together',
  parentDoctor: "An order is for the parent case's doctor",
  progressScanInvalid: 'Progress scan is not valid',
  progressScanRefinement: 'A progress scan goes with a refinement of its case',
  progressScanTwice: "The progress scan's scans are this order's: send no other here",
} as const;

/** Both the parent and the order type, or neither. */
function refineOrder(form: { parentCaseId?: number | null; orderType?: string | null }, ctx: z.RefinementCtx): void {
  const hasParent = form.parentCaseId !== null && form.parentCaseId !== undefined;
  const hasType = form.orderType !== null && form.orderType !== undefined;
  if (hasParent === hasType) return;
  ctx.addIssue({
    code: 'custom',
    path: [hasParent ? 'orderType' : 'parentCaseId'],
    message: caseOrderMessages.together,
  });
}

/** One order made from a case, as its parent lists it. */
export const caseOrder = z.object({
  caseId: z.number(),
  trackingNo: z.string(),
  orderType: caseOrderType,
  createdAt: z.string(),
});
export type CaseOrder = z.infer<typeof caseOrder>;

const rankFields = fieldsOfKind('rank');

/** A rank already used by another of the four cannot be chosen again. */
export function refineDistinctRanks(form: Partial<Record<string, unknown>>, ctx: z.RefinementCtx): void {
  const usedBy = new Map<unknown, string>();
  for (const { sent, label } of rankFields) {
    const value = form[sent];
    if (!value) continue;
    const earlier = usedBy.get(value);
    if (earlier)
      ctx.addIssue({ code: 'custom', path: [sent], message: `${String(value)} is already chosen for ${earlier}` });
    else usedBy.set(value, label);
  }
}

const uploadIdText = z.string().min(1).max(100);
const uploadsMessage = 'uploads must be a JSON object naming finished uploads by file field';

/**
 * The `uploads` text part of a case form: file fields filled by finished resumable uploads
 * (docs/decisions/uploads.md § Resumable uploads), e.g. `{"maxillaryScan":"<id>","otherFiles":["<id>"]}`.
 */
export const caseUploadNames = z.preprocess(
  (value) => {
    if (isBlank(value)) return undefined;
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return null;
    }
  },
  z
    .strictObject(
      {
        ...Object.fromEntries(
          [...Object.keys(scanFileTypes), ...Object.keys(photoFileTypes)].map((field) => [
            field,
            uploadIdText.optional(),
          ]),
        ),
        [otherFilesField]: uploadIdText.array().max(maxOtherFiles, `At most ${maxOtherFiles} other files`).optional(),
      } as Record<string, z.ZodOptional<z.ZodString> | z.ZodOptional<z.ZodArray<z.ZodString>>>,
      { error: uploadsMessage },
    )
    .optional(),
);

/**
 * POST /case/add, the text part of the multipart body ("Case submission (as sent)").
 * `userId` names the doctor when staff submit; for a doctor the server uses the caller.
 */
export const caseSubmission = z
  .object({
    ...caseFieldSubmissionShape,
    userId: z.preprocess(
      (value) => (isBlank(value) ? null : Number(value)),
      z.number({ error: 'Doctor is not valid' }).int('Doctor is not valid').min(0, 'Doctor is not valid').nullable(),
    ),
    termsAndCondition: acceptance,
    parentCaseId: z
      .preprocess(
        (value) => (isBlank(value) ? null : Number(value)),
        z
          .number({ error: caseOrderMessages.parentInvalid })
          .int(caseOrderMessages.parentInvalid)
          .min(1, caseOrderMessages.parentInvalid)
          .max(2_147_483_647, caseOrderMessages.parentInvalid)
          .nullable(),
      )
      .optional()
      .meta({ description: 'The case this order continues; sent together with orderType, or neither' }),
    orderType: z
      .preprocess((value) => (isBlank(value) ? null : value), caseOrderType.nullable())
      .optional()
      .meta({ description: 'Refinement, Retainer or Replacement; sent together with parentCaseId, or neither' }),
    uploads: caseUploadNames,
    progressScanId: z
      .preprocess(
        (value) => (isBlank(value) ? undefined : Number(value)),
        z
          .number({ error: caseOrderMessages.progressScanInvalid })
          .int(caseOrderMessages.progressScanInvalid)
          .min(1, caseOrderMessages.progressScanInvalid)
          .max(2_147_483_647, caseOrderMessages.progressScanInvalid)
          .optional(),
      )
      .meta({
        description:
          "A refinement from a progress scan of the parent case (docs/decisions/progress-scans.md): that scan's upper and lower files become the order's maxillary and mandibular scans",
      }),
    /** The draft this case was written in: deleted with the case's creation (docs/decisions/case-form.md § Drafts). */
    draftId: z.preprocess(
      (value) => (isBlank(value) ? undefined : Number(value)),
      z
        .number({ error: 'Draft is not valid' })
        .int('Draft is not valid')
        .min(1, 'Draft is not valid')
        .max(2147483647, 'Draft is not valid')
        .optional(),
    ),
  })
  .superRefine(refineDistinctRanks)
  .superRefine(refineOrder);
export type CaseSubmission = z.infer<typeof caseSubmission>;

export const caseAddResponse = z.object({ message: z.string(), CaseId: z.number(), TrackingNo: z.string() });

// ---------------------------------------------------------------------------- answers

/** "Case (as read)" plus what the lists and the status workflow need. */
export const caseRow = z.object({
  CaseId: z.number(),
  TrackingNo: z.string(),
  ...caseFieldAnswerShape,
  doctorname: z.string(),
  Status: caseStatus,
  CreatedAt: z.string(),
  DoctorUserId: z.number(),
  /** When the case entered its current status, ISO 8601 (its days in status, its due date). */
  StatusChangedAt: z.string(),
  /** The lab's technician on the case (docs/decisions/cases.md § Assignment and internal notes), or null. */
  AssigneeUserId: z.number().nullable(),
  AssigneeName: z.string().nullable(),
  /** The case's latest done progress scan has a tooth off track (docs/decisions/progress-scans.md § Off track on the lists). */
  OffTrack: z.boolean().meta({ description: "The case's latest done progress scan has a tooth off track" }),
});
export type CaseRow = z.infer<typeof caseRow>;

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
    .max(maxPageSize, `Page size is at most ${maxPageSize}`)
    .optional()
    .meta({ description: `Rows a page, ${defaultPageSize} when not given` }),
  search: z.string().trim().max(100, 'Search is at most 100 characters').optional(),
  sort: z
    .enum([...caseSortColumns, ...caseSortColumns.map((column) => `-${column}` as const)], {
      error: 'Sort is not valid',
    })
    .optional(),
  /** Only cases whose newest treatment plan version is in this state (the plan tiles). */
  planState: planState.optional(),
  /** Only the caller's cases as the lab's technician (`mine`), those of nobody (`unassigned`). */
  assignee: z.enum(caseAssigneeFilters, { error: 'Assignee must be mine or unassigned' }).optional(),
  /** Only cases past their status's turnaround target (TURNAROUND_DAYS). */
  overdue: z.enum(['true'], { error: 'Overdue must be true' }).optional(),
  offTrack: z
    .enum(['true'], { error: 'Off track must be true' })
    .optional()
    .meta({ description: 'Only cases whose latest done progress scan has a tooth off track' }),
  /** Only cases submitted on or after this day (UTC), YYYY-MM-DD. */
  from: z.iso.date({ error: 'From must be a date, YYYY-MM-DD' }).optional(),
  /** Only cases submitted on or before this day (UTC), YYYY-MM-DD. */
  to: z.iso.date({ error: 'To must be a date, YYYY-MM-DD' }).optional(),
});
export type CaseListQuery = z.infer<typeof caseListQuery>;

/** The columns the doctor and user lists sort by (`-` before one for descending). */
export const accountSortColumns = ['UserId', 'UserName', 'FirstName', 'LastName', 'Email', 'MobileNo'] as const;

/** A `sort` over `columns`, each ascending or, with `-` before it, descending. */
export const sortOf = <const Column extends string>(columns: readonly Column[]) =>
  z.enum([...columns, ...columns.map((column) => `-${column}` as const)], { error: 'Sort is not valid' }).optional();

/**
 * `GET /api/doctor/get_doctors_list` and `GET /api/user/get_users_list`: one page too, oldest
 * account first unless sorted; search matches the username, names, e-mail or mobile, in any case.
 */
export const accountListQuery = caseListQuery
  .pick({ page: true, pageSize: true, search: true })
  .extend({ sort: sortOf(accountSortColumns) });
export type AccountListQuery = z.infer<typeof accountListQuery>;

export const caseStats = z.object({
  newcases: z.number(),
  total: z.number(),
  inprogress: z.number(),
  dispatched: z.number(),
  delivered: z.number(),
  /** Cases whose newest plan version awaits the doctor's approval. */
  awaitingApproval: z.number(),
  /** Cases whose newest plan version the doctor sent back. */
  changesRequested: z.number(),
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

// ---------------------------------------------------------------------------- the status workflow

/** The order a case goes through; moving forward may skip steps, going back needs a reason. */
export const caseStatusOrder: Record<CaseStatus, number> = { new: 0, inprogress: 1, dispatched: 2, delivered: 3 };
export const isBackwardMove = (from: CaseStatus, to: CaseStatus) => caseStatusOrder[to] < caseStatusOrder[from];
/**
 * A case leaves the lab (New or In Progress to Dispatched or Delivered) only with the doctor's
 * approved plan: nothing is made or handed over before (docs/decisions/cases.md § Case status
 * workflow). Dispatched to Delivered and moves back were checked when the case left.
 */
export const needsApprovedPlan = (from: CaseStatus, to: CaseStatus) =>
  caseStatusOrder[from] < caseStatusOrder.dispatched && caseStatusOrder[to] >= caseStatusOrder.dispatched;

export const caseStatusMessages = {
  reasonRequired: 'A reason is required to move a case back',
  courierRequired: 'Courier is required for a dispatched case',
  trackingNumberRequired: 'Tracking number is required for a dispatched case',
  deliveryNeedsApproval: 'The treatment plan must be approved by the doctor before the case is delivered',
} as const;

const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label} is not valid` })
    .trim()
    .max(max, `${label} is at most ${max} characters`)
    .optional();

/**
 * PUT /case/status/{caseId}: `{ status }` as before, plus what the move needs (docs/decisions/cases.md
 * § Case status workflow): `reason` to go back, `courier` and `trackingNumber` to dispatch,
 * and a `note` on any change. Blank texts count as absent.
 */
export const caseStatusRequest = z
  .object({
    status: caseStatus,
    note: optionalText('Note', 1000),
    reason: optionalText('Reason', 1000),
    courier: optionalText('Courier', 100),
    trackingNumber: optionalText('Tracking number', 100),
  })
  .superRefine((body, ctx) => {
    if (body.status === 'dispatched') {
      if (!body.courier)
        ctx.addIssue({ code: 'custom', path: ['courier'], message: caseStatusMessages.courierRequired });
      if (!body.trackingNumber)
        ctx.addIssue({ code: 'custom', path: ['trackingNumber'], message: caseStatusMessages.trackingNumberRequired });
    }
  });
export type CaseStatusRequest = z.infer<typeof caseStatusRequest>;

export const caseHistoryEntry = z.object({
  FromStatus: caseStatus.nullable(),
  ToStatus: caseStatus,
  ChangedBy: z.number(),
  ChangedByName: z.string(),
  ChangedAt: z.string(),
});
export type CaseHistoryEntry = z.infer<typeof caseHistoryEntry>;

// ---------------------------------------------------------------------------- one case and its timeline

/**
 * GET /case/{caseId}: the case as a list row shows it, plus `planState` (the newest
 * treatment plan version's state, null before the first), the case it was ordered from
 * (`parentCaseId`, `parentTrackingNo`, `orderType`; null for a first case) and the orders
 * made from it that the caller may see, oldest first.
 */
export const caseDetail = caseRow.extend({
  planState: planState
    .nullable()
    .meta({ description: "The newest treatment plan version's state; null before the first version" }),
  parentCaseId: z
    .number()
    .nullable()
    .meta({ description: 'The case this one was ordered from; null for a first case' }),
  parentTrackingNo: z.string().nullable().meta({ description: "The parent case's tracking number" }),
  orderType: caseOrderType.nullable().meta({ description: 'What this case is to its parent; null for a first case' }),
  orders: z.array(caseOrder).meta({ description: 'Cases ordered from this one, oldest first' }),
});
export type CaseDetail = z.infer<typeof caseDetail>;

const timelineActor = { by: z.number(), byName: z.string() };

/**
 * One entry of a case's timeline, told apart by `kind`: its submission (naming the case it was
 * ordered from) and files, the orders made from it, status
 * changes, the conversation's messages, plan versions and the doctor's decisions on them.
 * `at` is an ISO timestamp; the timeline is oldest first.
 */
export const caseTimelineEntry = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('created'),
    at: z.string(),
    ...timelineActor,
    trackingNo: z.string(),
    /** The case this one was ordered from, null for a first case. */
    parent: z.object({ caseId: z.number(), trackingNo: z.string(), orderType: caseOrderType }).nullable(),
  }),
  z.object({
    kind: z.literal('files'),
    at: z.string(),
    files: z.array(z.object({ FileName: z.string(), FileType: z.enum(caseFileTypes) })),
  }),
  z.object({
    kind: z.literal('status'),
    at: z.string(),
    ...timelineActor,
    from: caseStatus,
    to: caseStatus,
    note: z.string().nullable(),
    reason: z.string().nullable(),
    courier: z.string().nullable(),
    trackingNumber: z.string().nullable(),
  }),
  z.object({
    kind: z.literal('message'),
    at: z.string(),
    ...timelineActor,
    side: messageSide,
    text: z.string(),
    attachments: z.array(z.object({ fileName: z.string() })),
  }),
  z.object({ kind: z.literal('plan'), at: z.string(), ...timelineActor, planId: z.number(), version: z.number() }),
  z.object({
    kind: z.literal('order'),
    at: z.string(),
    ...timelineActor,
    caseId: z.number(),
    trackingNo: z.string(),
    orderType: caseOrderType,
  }),
  z.object({
    kind: z.literal('assignment'),
    at: z.string(),
    ...timelineActor,
    /** Who the case was assigned to; null when it was unassigned. */
    assigneeUserId: z.number().nullable(),
    assigneeName: z.string().nullable(),
  }),
  z.object({
    kind: z.literal('progress_scan'),
    at: z.string(),
    ...timelineActor,
    progressScanId: z.number(),
    /** The aligner worn. */
    stage: z.number(),
    state: z.enum(['queued', 'running', 'done', 'failed']),
    /** Once done: "4 of 28 teeth off track: 2, 3, 13, 21; the rest on track", its teeth in the case's numbering. */
    sentence: z.string().nullable(),
    /** Once failed: why. */
    reason: z.string().nullable(),
  }),
  z.object({
    kind: z.literal('plan_decision'),
    at: z.string(),
    ...timelineActor,
    planId: z.number(),
    version: z.number(),
    decision: z.enum(['approved', 'changes_requested']),
    comment: z.string().nullable(),
    /** The comments pinned to the model that the change request sent, by their pin numbers. */
    pinned: z.array(
      z.object({ number: z.number(), stage: z.number(), tooth: z.number().nullable(), text: z.string() }),
    ),
  }),
]);
export type CaseTimelineEntry = z.infer<typeof caseTimelineEntry>;
export type CaseTimelineKind = CaseTimelineEntry['kind'];

// ---------------------------------------------------------------------------- the form

/**
 * The case form in the browser: the submission's rules, plus the two the form checks before
 * sending: staff (and an assistant of several doctors) must pick the doctor, and a digital impression needs the maxillary scan.
 * Both run even while other fields are invalid, so every message shows at once.
 */
export const caseForm = caseSubmission.safeExtend({ picksDoctor: z.boolean(), maxillaryScan: z.unknown() }).superRefine(
  (form, ctx) => {
    if (form.picksDoctor && !form.userId) {
      ctx.addIssue({ code: 'custom', path: ['userId'], message: requiredMessage('Doctor') });
    }
    // A refinement from a progress scan takes the scan's files (the server says if it has no upper).
    if (form.impressionType === 'Digital Impression' && !form.maxillaryScan && form.progressScanId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['maxillaryScan'], message: caseFileMessages.maxillaryScanRequired });
    }
  },
  { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
);
