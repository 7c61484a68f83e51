import { z } from 'zod';
import {
  caseFieldList,
  caseFormSteps,
  maxOtherFiles,
  otherFilesField,
  photoFileTypes,
  scanFileTypes,
} from './cases.ts';

/**
 * Case drafts (docs/decisions/case-form.md § Drafts): the case form as the doctor left it, saved as
 * they type. A draft is partial: each field present is checked by its own rule from the
 * case field table, blank is "not filled in yet", and the submission checks the whole.
 */

export const maxDraftsPerUser = 50;
/** The JSON of one draft's fields and files, in bytes. */
export const maxDraftBytes = 64 * 1024;

export const caseDraftMessages = {
  tooMany: `You can keep at most ${maxDraftsPerUser} drafts; submit or delete one first`,
  tooLarge: `A draft is at most ${maxDraftBytes / 1024} KB`,
  unknownField: 'This is not a field of the case form',
  uploadId: 'Upload id is not valid',
} as const;

const isBlank = (value: unknown) => value === undefined || value === null || value === '';

/** A form value as the form holds it (a string), kept as sent once the field's own rule accepts it. */
const draftValue = (label: string, rule: z.ZodType) =>
  z.preprocess(
    (value) => (isBlank(value) ? undefined : value),
    z
      .string({ error: `${label} is not valid` })
      .superRefine((value, ctx) => {
        const checked = rule.safeParse(value);
        if (!checked.success) ctx.addIssue({ code: 'custom', message: checked.error.issues[0]!.message });
      })
      .optional(),
  );

/** An object of `shape` whose other keys are refused, each named in the field errors. */
function refuseUnknownKeys<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.looseObject(shape).superRefine((value, ctx) => {
    for (const key of Object.keys(value))
      if (!Object.hasOwn(shape, key))
        ctx.addIssue({ code: 'custom', path: [key], message: caseDraftMessages.unknownField });
  });
}

const draftFieldShape = Object.fromEntries(
  caseFieldList.map((field) => [field.sent, draftValue(field.label, field.schema)]),
) as unknown as Record<(typeof caseFieldList)[number]['sent'], z.ZodOptional<z.ZodString>>;

/** The case form's fields by their submission names; any other key is refused. */
export const caseDraftFields = refuseUnknownKeys(draftFieldShape);
export type CaseDraftFields = Partial<Record<(typeof caseFieldList)[number]['sent'], string>>;

/**
 * An upload id of a resumable upload, kept as an opaque string: the upload's own endpoint
 * (tus) owns what it names, and submitting links it (docs/decisions/case-form.md § Drafts).
 */
export const draftUploadId = z.string({ error: caseDraftMessages.uploadId }).regex(/^[A-Za-z0-9_-]{1,128}$/, {
  error: caseDraftMessages.uploadId,
});

const singleFileFields = [...Object.keys(scanFileTypes), ...Object.keys(photoFileTypes)];

/** The form's file fields, each with the upload id(s) already sent for it. */
export const caseDraftFiles = refuseUnknownKeys({
  ...Object.fromEntries(singleFileFields.map((name) => [name, draftUploadId.optional()])),
  [otherFilesField]: z.array(draftUploadId).max(maxOtherFiles, `Other files are at most ${maxOtherFiles}`).optional(),
}) as unknown as z.ZodType<Record<string, string | string[] | undefined>, unknown>;
export type CaseDraftFiles = Record<string, string | string[] | undefined>;

const byteLength = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

/** POST /case/drafts and PUT /case/drafts/:draftId: the whole draft, replacing what was saved. */
export const caseDraftRequest = z
  .object({
    fields: caseDraftFields,
    files: caseDraftFiles.optional(),
    /** The step the form is on (0-2), so that opening the draft returns there. */
    step: z
      .number({ error: 'Step is not valid' })
      .int('Step is not valid')
      .min(0, 'Step is not valid')
      .max(caseFormSteps.length - 1, 'Step is not valid')
      .optional(),
    /** Staff: the doctor picked in the form, if any yet; a doctor's drafts are always their own. */
    doctorUserId: z
      .number({ error: 'Doctor is not valid' })
      .int('Doctor is not valid')
      .min(1, 'Doctor is not valid')
      .max(2147483647, 'Doctor is not valid')
      .nullable()
      .optional(),
  })
  .superRefine((draft, ctx) => {
    if (byteLength({ fields: draft.fields, files: draft.files }) > maxDraftBytes)
      ctx.addIssue({ code: 'custom', path: ['fields'], message: caseDraftMessages.tooLarge });
  });
export type CaseDraftRequest = z.input<typeof caseDraftRequest>;
export type CaseDraftInput = z.output<typeof caseDraftRequest>;

export const caseDraftSaved = z.object({ draftId: z.number(), updatedAt: z.string() });

/** A row of the dashboard's Drafts list. */
export const caseDraftSummary = z.object({
  draftId: z.number(),
  /** 'First Last' as typed so far; '' before a name is typed. */
  patientName: z.string(),
  doctorUserId: z.number().nullable(),
  step: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CaseDraftSummary = z.infer<typeof caseDraftSummary>;

/** GET /case/drafts/:draftId: everything to restore the form. */
export const caseDraft = caseDraftSummary.extend({
  fields: z.record(z.string(), z.string()),
  files: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  /**
   * The uploads `files` names that are still there: each one's name, size and whether its last
   * byte is in (an unfinished one resumes when the same file is chosen again).
   */
  uploads: z.array(z.object({ uploadId: z.string(), fileName: z.string(), size: z.number(), finished: z.boolean() })),
});
export type CaseDraft = z.infer<typeof caseDraft>;
