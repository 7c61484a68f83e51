import { z } from 'zod';
import { email } from './fields.ts';
import { meshViewAnswer } from './mesh-views.ts';
import { planFinding, planFindingsCheck } from './plan-findings.ts';
import { planStates } from './plan-states.ts';

export * from './plan-findings.ts';

/**
 * Treatment plans (docs/decisions/plans.md § Treatment plans): versions the lab uploads, each a
 * summary and one STL per arch and stage, that the case's doctor approves or sends back.
 */

export const planState = z.enum(planStates, { error: 'Plan state is not valid' });

export const planArches = ['upper', 'lower'] as const;
export type PlanArch = (typeof planArches)[number];

export const maxPlanStages = 99;

/** FDI tooth numbers: quadrants 1-4, teeth 1-8. */
export const fdiTeeth = [1, 2, 3, 4].flatMap((quadrant) =>
  Array.from({ length: 8 }, (_, index) => quadrant * 10 + index + 1),
);
const isFdiTooth = (tooth: number) => fdiTeeth.includes(tooth);

/**
 * Two teeth that touch, in FDI: neighbours in one quadrant (13-14) or the two central
 * incisors of an arch across the midline (11-21, 31-41). Either order is accepted.
 */
export function isAdjacentContact(contact: string): boolean {
  const match = /^(\d{2})-(\d{2})$/.exec(contact);
  if (!match) return false;
  const a = Number(match[1]);
  const b = Number(match[2]);
  if (!isFdiTooth(a) || !isFdiTooth(b)) return false;
  const [qa, ta, qb, tb] = [Math.floor(a / 10), a % 10, Math.floor(b / 10), b % 10];
  if (qa === qb) return Math.abs(ta - tb) === 1;
  const midline = (qa === 1 && qb === 2) || (qa === 2 && qb === 1) || (qa === 3 && qb === 4) || (qa === 4 && qb === 3);
  return midline && ta === 1 && tb === 1;
}

const stageCount = (label: string) =>
  z
    .number({ error: `${label} must be a whole number from 0 to ${maxPlanStages}` })
    .int(`${label} must be a whole number from 0 to ${maxPlanStages}`)
    .min(0, `${label} must be a whole number from 0 to ${maxPlanStages}`)
    .max(maxPlanStages, `${label} must be a whole number from 0 to ${maxPlanStages}`);

export const iprEntry = z.object({
  contact: z
    .string({ error: 'Contact must be two adjacent teeth in FDI, e.g. 11-21' })
    .trim()
    .refine(isAdjacentContact, 'Contact must be two adjacent teeth in FDI, e.g. 11-21'),
  amountMm: z
    .number({ error: 'IPR amount must be from 0.1 to 1.0 mm' })
    .min(0.1, 'IPR amount must be from 0.1 to 1.0 mm')
    .max(1, 'IPR amount must be from 0.1 to 1.0 mm'),
  stage: z
    .number({ error: 'IPR stage must be a whole number' })
    .int('IPR stage must be a whole number')
    .min(0, 'IPR stage must be a whole number from 0')
    .max(maxPlanStages, `IPR stage is at most ${maxPlanStages}`)
    .optional(),
});
export type IprEntry = z.infer<typeof iprEntry>;

/** The `summary` part of a plan upload (JSON text in the form). */
export const planSummary = z
  .object({
    upperStages: stageCount('Upper stages'),
    lowerStages: stageCount('Lower stages'),
    ipr: z.array(iprEntry).max(64, 'At most 64 IPR contacts').default([]),
    attachmentTeeth: z
      .array(
        z
          .number({ error: 'Attachment teeth must be FDI tooth numbers' })
          .int('Attachment teeth must be FDI tooth numbers')
          .refine(isFdiTooth, 'Attachment teeth must be FDI tooth numbers'),
      )
      .max(32, 'At most 32 attachment teeth')
      .refine((teeth) => new Set(teeth).size === teeth.length, 'Attachment teeth must not repeat')
      .default([]),
    /** The stage an attachment is placed at, for attachment teeth not placed at stage 0. */
    attachmentStages: z
      .array(
        z.object({
          tooth: z.number({ error: 'Attachment stages must name attachment teeth' }),
          stage: z
            .number({ error: 'Attachment stage must be a whole number' })
            .int('Attachment stage must be a whole number')
            .min(0, 'Attachment stage must be a whole number from 0')
            .max(maxPlanStages, `Attachment stage is at most ${maxPlanStages}`),
        }),
      )
      .max(32, 'At most 32 attachment stages')
      .default([]),
    notes: z.string({ error: 'Notes must be text' }).max(5000, 'Notes are at most 5000 characters').default(''),
    /** The lab's reason for sending a version the check finds against the prescription; the doctor reads it. */
    findingsReason: z
      .string({ error: 'The reason must be text' })
      .trim()
      .max(2000, 'The reason is at most 2000 characters')
      .default(''),
  })
  .superRefine((summary, ctx) => {
    if (summary.upperStages === 0 && summary.lowerStages === 0) {
      ctx.addIssue({ code: 'custom', path: ['upperStages'], message: 'At least one arch needs stages' });
    }
    const placed = new Set<number>();
    summary.attachmentStages.forEach(({ tooth, stage }, index) => {
      if (!summary.attachmentTeeth.includes(tooth) || placed.has(tooth)) {
        ctx.addIssue({
          code: 'custom',
          path: ['attachmentStages', index, 'tooth'],
          message: 'Attachment stages must name attachment teeth, each once',
        });
      }
      placed.add(tooth);
      const stages = tooth < 30 ? summary.upperStages : summary.lowerStages;
      if (stage > stages) {
        ctx.addIssue({
          code: 'custom',
          path: ['attachmentStages', index, 'stage'],
          message: `Attachment on ${tooth} is placed after its arch's last stage (${stages})`,
        });
      }
    });
  });
export type PlanSummary = z.infer<typeof planSummary>;

/** The stage an attachment tooth gets its attachment: stage 0 unless the summary says. */
export const attachmentStage = (summary: { attachmentStages: { tooth: number; stage: number }[] }, tooth: number) =>
  summary.attachmentStages.find((placed) => placed.tooth === tooth)?.stage ?? 0;

/** The multipart form's text part: `summary` as JSON text. */
export const planUploadForm = z.object({
  summary: z.string().meta({
    description:
      'The plan summary as JSON: upperStages, lowerStages, ipr, attachmentTeeth, attachmentStages, notes, findingsReason',
  }),
});

export const planStagesField = 'stages';

/**
 * Stage numbering: stage 0 is the teeth as they are (the initial position), stages 1..N the
 * aligners; an arch with N > 0 stages therefore has N + 1 files (0..N), an arch with 0 none.
 */
export const expectedStages = (count: number): number[] =>
  count === 0 ? [] : Array.from({ length: count + 1 }, (_, index) => index);

const archWords: Record<string, PlanArch> = {
  upper: 'upper',
  maxillary: 'upper',
  maxilla: 'upper',
  max: 'upper',
  lower: 'lower',
  mandibular: 'lower',
  mandible: 'lower',
  mand: 'lower',
};
const stageWords = new Set(['stage', 'step', 'subsetup', 'setup', 'arch', 'aligner']);

/**
 * The arch and stage of an STL as planning software names it: `upper_03.stl`,
 * `Maxillary_Stage_3.stl`, `lower-12.stl`, `Mandibular Stage 05.stl`,
 * `Subsetup3_Maxillary.stl`. The name (folders dropped) without `.stl` is split into runs
 * of letters and of digits: exactly one arch word (upper, maxillary, maxilla, max, lower,
 * mandibular, mandible, mand), exactly one number (the stage), and otherwise only the
 * words stage, step, subsetup, setup, arch, aligner; anything else is not recognised.
 */
export function parseStageFileName(fileName: string): { arch: PlanArch; stage: number } | undefined {
  const base = fileName.split(/[/\\]/).pop() ?? '';
  const match = /^(.*)\.stl$/i.exec(base);
  if (!match) return undefined;
  const tokens = match[1]!.toLowerCase().match(/[a-z]+|\d+|[^a-z\d]+/g) ?? [];
  let arch: PlanArch | undefined;
  let stage: number | undefined;
  for (const token of tokens) {
    if (/^\d+$/.test(token)) {
      if (stage !== undefined || token.length > 3) return undefined;
      stage = Number(token);
    } else if (/^[a-z]+$/.test(token)) {
      const word = archWords[token];
      if (word) {
        if (arch !== undefined) return undefined;
        arch = word;
      } else if (!stageWords.has(token)) return undefined;
    } else if (!/^[\s_.-]+$/.test(token)) return undefined;
  }
  if (arch === undefined || stage === undefined || stage > maxPlanStages) return undefined;
  return { arch, stage };
}

/** Patient links a doctor may have mailed in 24 hours: as many as assistant invitations (a bound on mail sent in the portal's name). */
export const planShareMailsPerDay = 20;
/** Replies on one pinned comment: a short thread, not a conversation (the case's messages are that). */
export const maxRepliesPerComment = 20;

export const planMessages = {
  summaryRequired: 'The plan summary is required',
  summaryNotJson: 'The plan summary must be JSON',
  stagesRequired: 'Send the stage models: STL files or one ZIP of them',
  commentRequired: 'A comment is required to request changes',
  reviewRequired: 'Confirm that you have reviewed this plan in 3D',
  notAwaiting: 'Only a plan version awaiting approval can be decided',
  superseded: 'This plan version has been superseded by a newer one',
  alreadyDecided: 'This plan version has already been decided',
  commentsOnAwaiting: 'Comments are written on the version awaiting approval',
  commentAlreadySent: 'This comment was sent to the lab with a change request and stays',
  tooManyComments: 'A version holds at most 100 pinned comments',
  shareDays: 'Days must be a whole number from 1 to 30',
  tooManyShares: 'This version already has 10 patient links open: revoke one first',
  shareNotFound: 'This link is not valid: it may have expired or been revoked',
  shareNotCurrent:
    "Patient links are made for the case's current plan version: this one was replaced by a newer version",
  tooManyShareMails: (at: string) =>
    `You have mailed ${planShareMailsPerDay} patient links in the last 24 hours; you can mail one again after ${at}`,
  repliesOnSent: 'Replies start once the comment has been sent to the lab',
  tooManyReplies: `A pinned comment holds at most ${maxRepliesPerComment} replies`,
  dispatchNeedsApproval: 'The treatment plan must be approved by the doctor before the case is dispatched',
  checkPending:
    'This version is still being checked against the prescription (its tooth movements are being measured): approve it when the check is done, in a minute or two',
  findingsNotAcknowledged:
    'This version departs from the prescription or the limits: acknowledge the findings to approve it',
} as const;

export const planStageFile = z.object({
  stageFileId: z.number(),
  arch: z.enum(planArches),
  stage: z.number(),
  fileName: z.string(),
  size: z.number(),
  sha256: z.string(),
  url: z.string(),
});
export type PlanStageFile = z.infer<typeof planStageFile>;

/** One version as listed: newest first. */
export const planVersion = z.object({
  planId: z.number(),
  caseId: z.number(),
  version: z.number(),
  state: planState,
  summary: z.object({
    upperStages: z.number(),
    lowerStages: z.number(),
    ipr: z.array(z.object({ contact: z.string(), amountMm: z.number(), stage: z.number().optional() })),
    attachmentTeeth: z.array(z.number()),
    /** Empty for versions uploaded before attachments had a stage: all at stage 0. */
    attachmentStages: z.array(z.object({ tooth: z.number(), stage: z.number() })),
    notes: z.string(),
    /** The lab's reason for sending it despite its findings ('' for none; the server always sends it). */
    findingsReason: z.string().optional(),
  }),
  uploadedBy: z.number(),
  uploadedByName: z.string(),
  createdAt: z.string(),
  decidedBy: z.number().nullable(),
  decidedByName: z.string().nullable(),
  decidedAt: z.string().nullable(),
  /** The approving doctor ticked that they reviewed it in 3D (null before approval, and for versions approved before the tick existed). */
  reviewedIn3d: z.boolean().nullable(),
  comment: z.string().nullable(),
  stages: z.array(planStageFile),
  /** The version checked against the case's prescription and the lab's limits: [] when it keeps to them. */
  findings: z.array(planFinding),
  findingsCheck: planFindingsCheck,
  /** The approving doctor acknowledged the findings (null before approval, and when there were none to acknowledge). */
  findingsAcknowledged: z.boolean().nullable(),
});
export type PlanVersion = z.infer<typeof planVersion>;

/**
 * The viewer's copies of a plan version (docs/decisions/meshes.md § Meshes for viewing), per arch
 * (null for an arch without stages): one GLB of stage 0's teeth and their motion per stage.
 * When it failed because the stages are not the same teeth moved, each stage file has a
 * copy of its own (planFileView).
 */
export const planViewAnswer = z.object({ upper: meshViewAnswer.nullable(), lower: meshViewAnswer.nullable() });
export type PlanViewAnswer = z.infer<typeof planViewAnswer>;

/**
 * How far one tooth moves from stage 0 to the plan's last stage
 * (docs/decisions/plans.md § Tooth movements), in its own axes: translation in millimetres (mesial, buccal and extrusive
 * positive), rotation in degrees (tip: the crown mesially; torque: the crown buccally;
 * rotation: the mesial side buccally), and the largest step from one stage to the next.
 */
export const toothMovement = z.object({
  tooth: z.number().int().min(1).max(32).meta({ description: 'Universal number, 1-32' }),
  arch: z.enum(planArches),
  /** Its shell in the arch's viewing copy (node `shell-<n>`); absent for versions measured before it was kept. */
  shell: z.number().int().optional(),
  translationMm: z.object({
    mesiodistal: z.number(),
    buccolingual: z.number(),
    vertical: z.number(),
    total: z.number(),
  }),
  rotationDeg: z.object({ tip: z.number(), torque: z.number(), rotation: z.number() }),
  maxStepMm: z.number(),
  maxStepDeg: z.number(),
  overLimit: z.boolean().meta({ description: "A step moves it more than the lab's per-stage limit" }),
});
export type ToothMovement = z.infer<typeof toothMovement>;

export const planMovementsAnswer = z.object({
  available: z.boolean(),
  reason: z
    .string()
    .optional()
    .meta({ description: 'Why an arch has no movements (both arches named when both have none)' }),
  limits: z.object({ stepMm: z.number(), stepDeg: z.number() }),
  teeth: z.array(toothMovement),
});
export type PlanMovementsAnswer = z.infer<typeof planMovementsAnswer>;

export const planUploadResponse = z.object({ message: z.string(), planId: z.number(), version: z.number() });

/**
 * A comment the case's doctor pins to a point of the model at a stage (docs/decisions/plans.md §
 * Comments pinned to the model): kept as the doctor's draft until they request changes,
 * which sends it to the lab; the lab marks it resolved when a new version answers it.
 */
export const planCommentInput = z.object({
  stage: z
    .number({ error: 'Stage must be a whole number' })
    .int('Stage must be a whole number')
    .min(0, 'Stage must be a whole number from 0')
    .max(maxPlanStages, `Stage is at most ${maxPlanStages}`),
  arch: z.enum(planArches, { error: 'Arch must be upper or lower' }),
  point: z
    .array(
      z
        .number({ error: 'Point must be three numbers (millimetres)' })
        .min(-10_000, 'Point must lie within 10 metres of the model')
        .max(10_000, 'Point must lie within 10 metres of the model'),
    )
    .length(3, 'Point must be three numbers (millimetres)'),
  text: z
    .string({ error: 'A comment is required' })
    .trim()
    .min(1, 'A comment is required')
    .max(2000, 'A comment is at most 2000 characters'),
});
export type PlanCommentInput = z.infer<typeof planCommentInput>;

export const planCommentReplyInput = z.object({
  text: z
    .string({ error: 'A reply is required' })
    .trim()
    .min(1, 'A reply is required')
    .max(1000, 'A reply is at most 1000 characters'),
});
export type PlanCommentReplyInput = z.infer<typeof planCommentReplyInput>;

/** One reply on a pinned comment: by the lab or the doctor's side, with its author and time. */
export const planCommentReply = z.object({
  replyId: z.number(),
  text: z.string(),
  author: z.string(),
  /** Which side wrote it: the lab's staff, or the case's doctor or their assistant. */
  side: z.enum(['lab', 'doctor']),
  createdAt: z.string(),
});
export type PlanCommentReply = z.infer<typeof planCommentReply>;

export const planComment = z.object({
  commentId: z.number(),
  planId: z.number(),
  /** 1, 2, ... in the order the doctor wrote them on this version: the pin's number. */
  number: z.number(),
  stage: z.number(),
  arch: z.enum(planArches),
  point: z.array(z.number()),
  /** The nearest tooth at that stage (Universal 1-32); null when the teeth were not measured. */
  tooth: z.number().nullable(),
  text: z.string(),
  author: z.string(),
  createdAt: z.string(),
  /** When the doctor's change request sent it to the lab; null while it is the doctor's draft. */
  sentAt: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  resolvedBy: z.string().nullable(),
  /** Replies on the comment once sent, oldest first. */
  replies: planCommentReply.array(),
});
export type PlanComment = z.infer<typeof planComment>;

/**
 * A read-only link for the patient to one plan version (docs/decisions/plans.md § Patient links):
 * the 3D stages and their count, nothing else of the case.
 */
export const planShareInput = z.object({
  days: z
    .number({ error: planMessages.shareDays })
    .int(planMessages.shareDays)
    .min(1, planMessages.shareDays)
    .max(30, planMessages.shareDays)
    .default(14),
  /** Also mails the link to this address (the patient's, typed by the doctor); bounded per doctor per day. */
  email: email.max(254, 'Email must be at most 254 characters').optional(),
});
export type PlanShareInput = z.input<typeof planShareInput>;

export const planShareCreated = z.object({
  shareId: z.number(),
  url: z.string(),
  expiresAt: z.string(),
  /** The address the link was mailed to, or null. */
  emailedTo: z.string().nullable(),
  /** The link as a QR code (SVG), for the patient to scan in the chair: shown once, like the link. */
  qrCodeSvg: z.string(),
});

export const planShare = z.object({
  shareId: z.number(),
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  /** The address the link was mailed to, or null for a link only copied. */
  emailedTo: z.string().nullable(),
  /** Neither expired nor revoked, and its version not replaced by a newer one. */
  isOpen: z.boolean(),
});
export type PlanShare = z.infer<typeof planShare>;

/**
 * What a patient link shows: the first name's initial, the version and its stages, the arches' 3D copies,
 * and the clinic to contact (the case's clinic: its name and phone, nothing of the doctor's own).
 */
export const sharedPlan = z.object({
  initial: z.string(),
  version: z.number(),
  upperStages: z.number(),
  lowerStages: z.number(),
  clinic: z.object({ name: z.string(), phone: z.string().nullable() }),
  views: planViewAnswer,
});
export type SharedPlan = z.infer<typeof sharedPlan>;

/** The token of a patient link: 32 random bytes, base64url. */
export const shareToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/, planMessages.shareNotFound);

/** Approving: the doctor's tick that they reviewed the version in the 3D viewer, recorded with the approval. */
export const planApproval = z.object({
  reviewedIn3d: z.literal(true, { error: planMessages.reviewRequired }),
  /** Required (true) when the version has findings or could not be checked in full. */
  findingsAcknowledged: z.boolean({ error: 'findingsAcknowledged must be true or false' }).optional(),
});
export type PlanApproval = z.infer<typeof planApproval>;

export const planChangeRequest = z.object({
  comment: z
    .string({ error: planMessages.commentRequired })
    .trim()
    .min(1, planMessages.commentRequired)
    .max(5000, 'The comment is at most 5000 characters'),
});
export type PlanChangeRequest = z.infer<typeof planChangeRequest>;
