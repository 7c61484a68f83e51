import type { LabSettings } from '@portal/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { caseKeys, settingsKeys } from '../../../lib/shared-queries.ts';

/** The lab's settings (the administrator's Settings screen). */
export const labSettingsQueryOptions = () =>
  queryOptions({ queryKey: settingsKeys.lab(), queryFn: () => api.call('GET /api/settings', {}) });

export const useLabSettings = () => useQuery(labSettingsQueryOptions());

export const saveLabSettings = (body: LabSettings) => api.call('PUT /api/settings', { body });

/** Saves them; what other screens read of them (turnaround targets, couriers, the lab's time zone) is read again. */
export function useSaveLabSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveLabSettings,
    onSuccess: (saved) => {
      queryClient.setQueryData(settingsKeys.lab(), saved);
      void queryClient.invalidateQueries({ queryKey: settingsKeys.all });
      void queryClient.invalidateQueries({ queryKey: caseKeys.turnaround() });
    },
  });
}
