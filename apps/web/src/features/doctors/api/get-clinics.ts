import type { Clinic } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const getClinics = (doctorId: number) => api.get<Clinic[]>(`/clinic/get_clinics_list/${doctorId}`);

export const clinicsQueryOptions = (doctorId: number) =>
  queryOptions({ queryKey: ['clinics', doctorId], queryFn: () => getClinics(doctorId) });

/** A doctor's clinics; nothing is fetched for a doctor not yet saved. */
export const useClinics = (doctorId: number | null) =>
  useQuery({ ...clinicsQueryOptions(doctorId ?? 0), enabled: doctorId !== null });
