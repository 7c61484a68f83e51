import { isTimeZone } from '@portal/contract/time-zone-names';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api, backgroundApi } from '../../../lib/api-client.ts';
import { settingsKeys } from '../../../lib/shared-queries.ts';
import { browserTimeZone, setDisplayTimeZone } from '../../../lib/time-zone.ts';

/** The caller's time zone (null until chosen) and the lab's. */
export const timeZoneQueryOptions = () =>
  queryOptions({ queryKey: settingsKeys.timeZone(), queryFn: () => api.call('GET /api/account/time-zone', {}) });

export const useTimeZone = () => useQuery(timeZoneQueryOptions());

export const saveTimeZone = (timeZone: string) => api.call('PUT /api/account/time-zone', { body: { timeZone } });

export function useSaveTimeZone({ isBackground = false } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    // The first sign-in's save is made without the user asking: no full-screen overlay for it.
    mutationFn: isBackground
      ? (timeZone: string) => backgroundApi.call('PUT /api/account/time-zone', { body: { timeZone } })
      : saveTimeZone,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.timeZone() }),
  });
}

/**
 * Shows times in the user's zone. At a user's first sign-in they have none: the browser's is saved
 * as theirs (the lab's when the browser names none the server knows), which they may change on
 * their profile.
 */
export function useUserTimeZone(): void {
  const timeZone = useTimeZone();
  const save = useSaveTimeZone({ isBackground: true });
  const isSaving = useRef(false);
  const data = timeZone.data;
  useEffect(() => {
    if (!data) return;
    if (data.timeZone) {
      setDisplayTimeZone(data.timeZone);
      return;
    }
    const first = isTimeZone(browserTimeZone()) ? browserTimeZone() : data.labTimeZone;
    setDisplayTimeZone(first);
    if (isSaving.current) return;
    isSaving.current = true;
    save.mutate(first);
  }, [data, save]);
}
