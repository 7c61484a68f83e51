import { endpoints, type CaseStatus } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { caseKeys } from '../../../lib/shared-queries.ts';
import { caseDetailKeys } from './query-keys.ts';

export const updateCaseStatus = ({ caseId, status }: { caseId: number; status: CaseStatus }) =>
  api.call(endpoints.caseStatusChange, { params: { caseId }, body: { status } });

/** Moves a case to another status; the dashboard's tiles and lists and the case's history refresh. */
export function useUpdateCaseStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCaseStatus,
    onSuccess: (_, { caseId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: caseKeys.allStats() }),
        queryClient.invalidateQueries({ queryKey: caseKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: caseDetailKeys.history(caseId) }),
      ]),
  });
}
