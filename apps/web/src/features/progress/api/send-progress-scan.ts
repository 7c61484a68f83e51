import { useMutation, useQueryClient } from '@tanstack/react-query';
import { uploadApi } from '../../../lib/api-client.ts';
import { caseKeys } from '../../../lib/shared-queries.ts';
import { progressKeys } from './query-keys.ts';

/** The multipart body: the aligner worn, then the upper and/or lower STL. */
export function toProgressScanFormData(stage: number, files: { upper?: File | null; lower?: File | null }): FormData {
  const form = new FormData();
  form.append('stage', String(stage));
  if (files.upper) form.append('upper', files.upper, files.upper.name);
  if (files.lower) form.append('lower', files.lower, files.lower.name);
  return form;
}

/** Sends a progress scan, with the upload's progress in the overlay (as a plan's upload). */
export function useSendProgressScan(caseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: FormData) =>
      uploadApi.call('POST /api/case/:caseId/progress-scans', { params: { caseId }, body: form }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: progressKeys.ofCase(caseId) }),
        queryClient.invalidateQueries({ queryKey: caseKeys.timeline(caseId) }),
      ]),
  });
}
