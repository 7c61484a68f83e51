import { useQuery } from '@tanstack/react-query';
import { doctorListQueryOptions } from '../../../lib/shared-queries.ts';

/** The active doctors matching a search, a page of them, that a case can be submitted for. */
export function useActiveDoctors(search: string) {
  return useQuery(doctorListQueryOptions({ active: 'true', search, pageSize: 20, sort: 'FirstName' }));
}
