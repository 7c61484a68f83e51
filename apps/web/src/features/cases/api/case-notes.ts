import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { caseDetailKeys } from './query-keys.ts';

/** The lab's internal notes on a case, oldest first (staff only: the server answers 404 to doctors). */
export const useCaseNotes = (caseId: number) =>
  useQuery({
    queryKey: caseDetailKeys.notes(caseId),
    queryFn: () => api.call('GET /api/case/:caseId/notes', { params: { caseId } }),
  });

export function useAddCaseNote(caseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => api.call('POST /api/case/:caseId/notes', { params: { caseId }, body: { text } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: caseDetailKeys.notes(caseId) }),
  });
}
