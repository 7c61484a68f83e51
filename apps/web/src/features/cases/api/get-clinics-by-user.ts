import type { ClinicOption } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const getClinicsByUser = (userId: number) =>
  api.get<ClinicOption[]>(`/clinic/get_clinics_list_by_user_id/${userId}`);

export const clinicsByUserQueryOptions = (userId: number) =>
  queryOptions({ queryKey: ['clinics-by-user', userId], queryFn: () => getClinicsByUser(userId) });

/** The clinics of the doctor the case is for; nothing until a doctor is known. */
export function useClinicsByUser(userId: number | null) {
  return useQuery({ ...clinicsByUserQueryOptions(userId ?? 0), enabled: userId !== null });
}
