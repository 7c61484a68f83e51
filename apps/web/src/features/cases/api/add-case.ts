import type { CaseSubmission } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { uploadApi } from '../../../lib/api-client.ts';

/** One file part of the case upload: the field it goes under and the file. */
export interface CaseFilePart {
  field: string;
  file: File;
}

/**
 * The multipart body of POST /case/add: every text field first, in the contract's order, then
 * the files, so the server knows the case before the large parts stream in.
 */
export function toCaseFormData(submission: CaseSubmission, files: CaseFilePart[]): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(submission)) {
    // The finished uploads the form names instead of their bytes (docs/decisions/uploads.md § Resumable uploads).
    if (name === 'uploads') {
      if (value) form.append(name, JSON.stringify(value));
    } else form.append(name, String(value ?? ''));
  }
  for (const { field, file } of files) form.append(field, file, file.name);
  return form;
}

/**
 * Uploads the case with progress ('{n}% uploaded'). Case lists and stats are then stale: they
 * are marked so (not refetched here) and load afresh where they are shown next.
 */
export function useAddCase() {
  const queryClient = useQueryClient();
  return async (form: FormData) => {
    const answer = await uploadApi.call('POST /api/case/add', { body: form });
    void queryClient.invalidateQueries({ refetchType: 'none' });
    return answer;
  };
}
