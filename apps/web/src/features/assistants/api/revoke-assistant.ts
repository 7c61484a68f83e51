import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { assistantKeys } from './query-keys.ts';

export const revokeAssistant = (assistantUserId: number) =>
  api.call('DELETE /api/doctor/assistants/:assistantUserId', { params: { assistantUserId } });

export function useRevokeAssistant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeAssistant,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: assistantKeys.own }),
  });
}
