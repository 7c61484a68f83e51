import type { PlanApproval, PlanSummary } from '@portal/contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api, uploadApi } from '../../../lib/api-client.ts';
import { caseKeys, messageKeys } from '../../../lib/shared-queries.ts';

/** What a new version or a decision makes stale: this case's plans, page and timeline, the tiles and lists, the inbox. */
const refreshCase = (queryClient: QueryClient, caseId: number) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: caseKeys.plans(caseId) }),
    queryClient.invalidateQueries({ queryKey: caseKeys.detail(caseId) }),
    queryClient.invalidateQueries({ queryKey: caseKeys.timeline(caseId) }),
    queryClient.invalidateQueries({ queryKey: caseKeys.allStats() }),
    queryClient.invalidateQueries({ queryKey: caseKeys.lists() }),
    queryClient.invalidateQueries({ queryKey: messageKeys.inbox() }),
  ]);

/** The multipart body of a plan upload: the summary as JSON first, then the STLs or the one ZIP. */
export function toPlanFormData(summary: PlanSummary, files: File[]): FormData {
  const form = new FormData();
  form.append('summary', JSON.stringify(summary));
  for (const file of files) form.append('stages', file, file.name);
  return form;
}

/** Staff upload a version, with progress in the overlay. */
export function useUploadPlan(caseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: FormData) => uploadApi.call('POST /api/case/:caseId/plans', { params: { caseId }, body: form }),
    onSuccess: () => refreshCase(queryClient, caseId),
  });
}

/**
 * The case's doctor approves the version awaiting approval, with their tick that they
 * reviewed it in 3D (the server refuses an approval without it) and, when it has findings
 * against the prescription, that they acknowledge them, or requests changes with a comment.
 */
export function useDecidePlan(caseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: { planId: number } & (PlanApproval | { comment: string })) =>
      'comment' in decision
        ? api.call('POST /api/case/:caseId/plans/:planId/request_changes', {
            params: { caseId, planId: decision.planId },
            body: { comment: decision.comment },
          })
        : api.call('POST /api/case/:caseId/plans/:planId/approve', {
            params: { caseId, planId: decision.planId },
            body: {
              reviewedIn3d: decision.reviewedIn3d,
              ...(decision.findingsAcknowledged !== undefined && {
                findingsAcknowledged: decision.findingsAcknowledged,
              }),
            },
          }),
    onSuccess: () => refreshCase(queryClient, caseId),
  });
}
