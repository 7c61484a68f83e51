import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { clinicsByUserKeys } from './query-keys.ts';

export const getClinicsByUser = (userId: number) =>
  api.call('GET /api/clinic/get_clinics_list_by_user_id/:id', { params: { id: userId } });

export const clinicsByUserQueryOptions = (userId: number) =>
  queryOptions({ queryKey: clinicsByUserKeys.ofUser(userId), queryFn: () => getClinicsByUser(userId) });

/** The clinics of the doctor the case is for; nothing until a doctor is known. */
export function useClinicsByUser(userId: number | null) {
  return useQuery({ ...clinicsByUserQueryOptions(userId ?? 0), enabled: userId !== null });
}
