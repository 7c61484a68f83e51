import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { sessionKeys } from './query-keys.ts';

export const endSession = (sessionId: string) =>
  api.call('DELETE /api/auth/sessions/:sessionId', { params: { sessionId } });

export const endOtherSessions = () => api.call('POST /api/auth/sessions/end_others');

/** Ends one of the user's other sessions, or (without an id) all of them; the list is read again. */
export function useEndSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sessionId?: string) => (sessionId ? endSession(sessionId) : endOtherSessions()),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionKeys.mine }),
  });
}
