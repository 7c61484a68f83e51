import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { announceMessagesRead } from '../../../lib/tab-sync.ts';
import { messageKeys } from './query-keys.ts';

export const markCaseRead = (caseId: number) =>
  api.call('POST /api/case/:caseId/messages/read', { params: { caseId } });

/** Marks the case's messages read for the caller; the unread badges refresh, in every tab. */
export function useMarkCaseRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markCaseRead,
    onSuccess: (_, caseId) => {
      // The caller's other tabs drop the same badges.
      announceMessagesRead(caseId);
      return queryClient.invalidateQueries({ queryKey: messageKeys.unread() });
    },
  });
}
