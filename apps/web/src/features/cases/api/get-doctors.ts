import type { Doctor } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const getDoctors = () => api.get<Doctor[]>('/doctor/get_doctors_list');

export const doctorsQueryOptions = () => queryOptions({ queryKey: ['doctors'], queryFn: getDoctors });

/** The doctors a case can be submitted for: active ones only. */
export function useActiveDoctors({ enabled }: { enabled: boolean }) {
  return useQuery({
    ...doctorsQueryOptions(),
    enabled,
    select: (doctors) => doctors.filter((doctor) => doctor.IsActive),
  });
}
