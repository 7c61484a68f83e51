import {
  caseFieldList,
  otherFilesField,
  photoFileTypes,
  scanFileTypes,
  type CaseDraft,
  type CaseDraftRequest,
  type DoctorPreferences,
} from '@portal/contract';
import { initialCaseFormValues, type CaseFormValues, type PhotoField, type ScanField } from './case-form-values.ts';
import { UploadedFile } from './uploaded-file.ts';

const formFieldNames = caseFieldList.filter((field) => field.section !== null).map((field) => field.sent);

/** The form's file fields: one file each, and `otherFiles`, a list. */
const singleFileFields = [...Object.keys(scanFileTypes), ...Object.keys(photoFileTypes)] as (ScanField | PhotoField)[];

/** Knows the upload id of a file in the form, once the server made one (`useFileUploads().idOf`). */
export type UploadIdOf = (file: File) => string | null;

/** The form's files as a draft keeps them: each file's upload id, by file field; files without one yet are left out. */
function draftFiles(values: CaseFormValues, uploadIdOf: UploadIdOf): CaseDraftRequest['files'] {
  const files: Record<string, string | string[]> = {};
  for (const field of singleFileFields) {
    const file = values[field];
    const uploadId = file && uploadIdOf(file);
    if (uploadId) files[field] = uploadId;
  }
  const others = values.otherFiles.flatMap((file) => uploadIdOf(file) ?? []);
  if (others.length > 0) files[otherFilesField] = others;
  return files;
}

/**
 * The form's file fields from a draft: each finished upload stands in its field as an
 * `UploadedFile`. An unfinished one is left out: the browser has no bytes to resume it with
 * until the same file is chosen again (`unfinishedUploads`).
 */
function restoredFiles(draft: CaseDraft): Partial<CaseFormValues> {
  const byId = new Map(
    draft.uploads
      .filter((upload) => upload.finished)
      .map((upload) => [upload.uploadId, new UploadedFile(upload.uploadId, upload.fileName, upload.size)]),
  );
  const restored: Partial<Record<ScanField | PhotoField, File>> & { otherFiles?: File[] } = {};
  for (const field of singleFileFields) {
    const uploadId = draft.files[field];
    const file = typeof uploadId === 'string' ? byId.get(uploadId) : undefined;
    if (file) restored[field] = file;
  }
  const others = [draft.files[otherFilesField] ?? []].flat().flatMap((uploadId) => byId.get(uploadId) ?? []);
  if (others.length > 0) restored.otherFiles = others;
  return restored;
}

/** The uploads a draft started that had not finished: the form asks for these files again. */
export const unfinishedUploads = (draft: CaseDraft | undefined) =>
  draft?.uploads.filter((upload) => !upload.finished) ?? [];

/** What is saved of the form: the fields typed so far, the step, and the doctor staff picked. */
export function draftOf(values: CaseFormValues, step: number, uploadIdOf: UploadIdOf = () => null): CaseDraftRequest {
  const record = values as unknown as Record<string, unknown>;
  const fields = Object.fromEntries(
    formFieldNames.flatMap((name) => {
      const value = record[name];
      return typeof value === 'string' && value !== '' ? [[name, value]] : [];
    }),
  );
  const doctorUserId = values.picksDoctor && values.userId ? Number(values.userId) : null;
  return { fields, files: draftFiles(values, uploadIdOf), step, doctorUserId };
}

/** A form as the draft left it: the fresh form's values, then every field the draft kept. */
export function restoredCaseFormValues(
  doctorUserId: number | null,
  defaults: DoctorPreferences,
  draft: CaseDraft | undefined,
): CaseFormValues {
  const fresh = initialCaseFormValues(doctorUserId, defaults);
  if (!draft) return fresh;
  const fields = Object.fromEntries(
    Object.entries(draft.fields).filter(([name]) => (formFieldNames as string[]).includes(name)),
  );
  return {
    ...fresh,
    ...fields,
    ...(fresh.picksDoctor && draft.doctorUserId !== null && { userId: String(draft.doctorUserId) }),
    ...restoredFiles(draft),
  };
}
