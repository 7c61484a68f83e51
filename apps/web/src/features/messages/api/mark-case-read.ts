import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { messageKeys } from './query-keys.ts';

export const markCaseRead = (caseId: number) =>
  api.call('POST /api/case/:caseId/messages/read', { params: { caseId } });

/** Marks the case's messages read for the caller; the unread badges refresh. */
export function useMarkCaseRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markCaseRead,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageKeys.unread() }),
  });
}
