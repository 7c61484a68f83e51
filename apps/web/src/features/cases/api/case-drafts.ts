import type { CaseDraftRequest } from '@portal/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, backgroundApi } from '../../../lib/api-client.ts';
import { caseDraftKeys } from './query-keys.ts';

/**
 * The caller's drafts, the most recently saved first (the dashboard's Drafts list): read
 * afresh each time it is shown, since the form saves them in the background.
 */
export const useCaseDrafts = ({ enabled }: { enabled: boolean }) =>
  useQuery({
    queryKey: caseDraftKeys.all,
    queryFn: () => api.call('GET /api/case/drafts', {}),
    enabled,
    refetchOnMount: 'always',
  });

/** One draft whole, to restore the form; read afresh each time the form opens it. */
export const useCaseDraft = (draftId: number | null) =>
  useQuery({
    queryKey: caseDraftKeys.one(draftId ?? 0),
    queryFn: () => api.call('GET /api/case/drafts/:draftId', { params: { draftId: draftId! } }),
    enabled: draftId !== null,
    retry: false,
    gcTime: 0,
  });

/** Saved in the background as the form changes: no loading overlay. */
export const createCaseDraft = async (body: CaseDraftRequest) =>
  (await backgroundApi.call('POST /api/case/drafts', { body })).draftId;

export const saveCaseDraft = async (draftId: number, body: CaseDraftRequest) => {
  await backgroundApi.call('PUT /api/case/drafts/:draftId', { params: { draftId }, body });
};

export function useDeleteCaseDraft() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draftId: number) => api.call('DELETE /api/case/drafts/:draftId', { params: { draftId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: caseDraftKeys.all }),
  });
}
