import type { PlanCommentInput } from '@portal/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { planKeys } from './query-keys.ts';

/**
 * A version's pinned comments (docs/decisions/plans.md § Comments pinned to the model): the case's
 * doctor's drafts and sent ones, or the lab's sent ones. A change to them, here or on the
 * other side, arrives as the case's plan event, which reads the case's plans again, these too.
 */
export const usePlanComments = (caseId: number, planId: number, enabled = true) =>
  useQuery({
    enabled,
    queryKey: planKeys.comments(caseId, planId),
    queryFn: () => api.call('GET /api/case/:caseId/plans/:planId/comments', { params: { caseId, planId } }),
  });

export function usePlanCommentChanges(caseId: number, planId: number) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: planKeys.comments(caseId, planId) });
  const params = { caseId, planId };
  return {
    add: useMutation({
      mutationFn: (body: PlanCommentInput) =>
        api.call('POST /api/case/:caseId/plans/:planId/comments', { params, body }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (commentId: number) =>
        api.call('DELETE /api/case/:caseId/plans/:planId/comments/:commentId', { params: { ...params, commentId } }),
      onSuccess: refresh,
    }),
    resolve: useMutation({
      mutationFn: (commentId: number) =>
        api.call('POST /api/case/:caseId/plans/:planId/comments/:commentId/resolve', {
          params: { ...params, commentId },
        }),
      onSuccess: refresh,
    }),
    reply: useMutation({
      mutationFn: ({ commentId, text }: { commentId: number; text: string }) =>
        api.call('POST /api/case/:caseId/plans/:planId/comments/:commentId/replies', {
          params: { ...params, commentId },
          body: { text },
        }),
      onSuccess: refresh,
    }),
  };
}
