import type { MailPreferences } from '@portal/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

const mailPreferenceKeys = { own: ['mail-preferences'] as const };

/** The caller's e-mail preferences (every kind immediate before the first save) and the digest's hour. */
export const mailPreferencesQueryOptions = () =>
  queryOptions({
    queryKey: mailPreferenceKeys.own,
    queryFn: () => api.call('GET /api/account/mail-preferences', {}),
  });

export const useMailPreferences = () => useQuery(mailPreferencesQueryOptions());

export const saveMailPreferences = (body: MailPreferences) => api.call('PUT /api/account/mail-preferences', { body });

export function useSaveMailPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveMailPreferences,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mailPreferenceKeys.own }),
  });
}
