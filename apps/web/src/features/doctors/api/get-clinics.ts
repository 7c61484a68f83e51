import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { clinicKeys } from './query-keys.ts';

export const getClinics = (doctorId: number) =>
  api.call('GET /api/clinic/get_clinics_list/:id', { params: { id: doctorId } });

export const clinicsQueryOptions = (doctorId: number) =>
  queryOptions({ queryKey: clinicKeys.ofDoctor(doctorId), queryFn: () => getClinics(doctorId) });

/** A doctor's clinics; nothing is fetched for a doctor not yet saved. */
export const useClinics = (doctorId: number | null) =>
  useQuery({ ...clinicsQueryOptions(doctorId ?? 0), enabled: doctorId !== null });
