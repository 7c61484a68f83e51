import type { CaseStatus } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const updateCaseStatus = ({ caseId, status }: { caseId: number; status: CaseStatus }) =>
  api.put<{ message: string }>(`/case/status/${caseId}`, { status });

/** Moves a case to another status; the tiles, the lists and the case's history refresh. */
export function useUpdateCaseStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCaseStatus,
    // The dashboard's keys are ['cases', 'stats' | 'list', ...]; the history's ['cases', 'history', id].
    onSuccess: (_, { caseId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['cases', 'stats'] }),
        queryClient.invalidateQueries({ queryKey: ['cases', 'list'] }),
        queryClient.invalidateQueries({ queryKey: ['cases', 'history', caseId] }),
      ]),
  });
}
