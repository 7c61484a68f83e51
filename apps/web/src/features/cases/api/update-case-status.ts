import type { CaseStatusRequest } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { caseKeys } from '../../../lib/shared-queries.ts';
import { caseDetailKeys } from './query-keys.ts';

export const updateCaseStatus = ({ caseId, ...body }: CaseStatusRequest & { caseId: number }) =>
  api.call('PUT /api/case/status/:caseId', { params: { caseId }, body });

/** Moves a case to another status; the dashboard's tiles and lists and the case's page refresh. */
export function useUpdateCaseStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCaseStatus,
    onSuccess: (_, { caseId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: caseKeys.allStats() }),
        queryClient.invalidateQueries({ queryKey: caseKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: caseDetailKeys.detail(caseId) }),
        queryClient.invalidateQueries({ queryKey: caseDetailKeys.timeline(caseId) }),
      ]),
  });
}
