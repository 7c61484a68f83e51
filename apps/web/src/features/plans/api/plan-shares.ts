import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { planKeys } from './query-keys.ts';

/** A version's patient links and the doctor's changes to them (docs/decisions/plans.md § Patient links). */
export const usePlanShares = (caseId: number, planId: number) =>
  useQuery({
    queryKey: planKeys.shares(caseId, planId),
    queryFn: () => api.call('GET /api/case/:caseId/plans/:planId/shares', { params: { caseId, planId } }),
  });

export function usePlanShareChanges(caseId: number, planId: number) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: planKeys.shares(caseId, planId) });
  return {
    create: useMutation({
      mutationFn: (body: { days: number; email?: string }) =>
        api.call('POST /api/case/:caseId/plans/:planId/shares', { params: { caseId, planId }, body }),
      onSuccess: refresh,
    }),
    revoke: useMutation({
      mutationFn: (shareId: number) =>
        api.call('DELETE /api/case/:caseId/plans/:planId/shares/:shareId', { params: { caseId, planId, shareId } }),
      onSuccess: refresh,
    }),
  };
}
