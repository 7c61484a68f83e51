import type { AssistantInviteRequest } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { assistantKeys } from './query-keys.ts';

export const inviteAssistant = (body: AssistantInviteRequest) => api.call('POST /api/doctor/assistants', { body });

export function useInviteAssistant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteAssistant,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: assistantKeys.own }),
  });
}
