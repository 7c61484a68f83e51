import { useQuery } from '@tanstack/react-query';
import { doctorListQueryOptions } from '../../../lib/shared-queries.ts';

/** The doctors a case can be submitted for: active ones only. */
export function useActiveDoctors({ enabled }: { enabled: boolean }) {
  return useQuery({
    ...doctorListQueryOptions(),
    enabled,
    select: (doctors) => doctors.filter((doctor) => doctor.IsActive),
  });
}
