import type { DoctorPreferences } from '@portal/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { caseDefaultsKeys } from './query-keys.ts';

/** The signed-in doctor's usual case choices; an empty object before the first save. */
export const getDoctorPreferences = () => api.call('GET /api/doctor/preferences', {});

export const doctorPreferencesQueryOptions = () =>
  queryOptions({ queryKey: caseDefaultsKeys.own, queryFn: getDoctorPreferences });

export const useDoctorPreferences = ({ enabled }: { enabled: boolean }) =>
  useQuery({ ...doctorPreferencesQueryOptions(), enabled });

export const saveDoctorPreferences = (body: DoctorPreferences) => api.call('PUT /api/doctor/preferences', { body });

/** Keeps the doctor's case defaults; the next case form starts from them. */
export function useSaveDoctorPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveDoctorPreferences,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: caseDefaultsKeys.own }),
  });
}
