import { caseFieldList, type CaseDraft, type CaseDraftRequest, type DoctorPreferences } from '@portal/contract';
import { initialCaseFormValues, type CaseFormValues } from './case-form-values.ts';

const formFieldNames = caseFieldList.filter((field) => field.section !== null).map((field) => field.sent);

/**
 * The form's files as a draft keeps them: upload ids of resumable uploads by file field.
 * MERGE POINT (tus uploads, issue 10): files are sent with the submission today and have no
 * upload id while the form is open; once a file field holds its upload's id, map it here
 * (and back in `restoredFiles`). docs/decisions.md § Drafts
 */
function draftFiles(_values: CaseFormValues): CaseDraftRequest['files'] {
  return {};
}

/** MERGE POINT (tus uploads): the form's file fields from a draft's upload ids; none until the merge. */
function restoredFiles(_files: CaseDraft['files']): Partial<CaseFormValues> {
  return {};
}

/** What is saved of the form: the fields typed so far, the step, and the doctor staff picked. */
export function draftOf(values: CaseFormValues, step: number): CaseDraftRequest {
  const record = values as unknown as Record<string, unknown>;
  const fields = Object.fromEntries(
    formFieldNames.flatMap((name) => {
      const value = record[name];
      return typeof value === 'string' && value !== '' ? [[name, value]] : [];
    }),
  );
  const doctorUserId = values.isStaff && values.userId ? Number(values.userId) : null;
  return { fields, files: draftFiles(values), step, doctorUserId };
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
    ...(fresh.isStaff && draft.doctorUserId !== null && { userId: String(draft.doctorUserId) }),
    ...restoredFiles(draft.files),
  };
}
