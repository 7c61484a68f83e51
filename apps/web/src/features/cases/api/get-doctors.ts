import { useQuery } from '@tanstack/react-query';
import { doctorListQueryOptions } from '../../../lib/shared-queries.ts';

/** The active doctors matching a search, a page of them, that a case can be submitted for. */
export function useActiveDoctors(search: string) {
  // eslint-disable-next-line lingui/no-unlocalized-strings -- the API's sort column, not words
  return useQuery(doctorListQueryOptions({ active: 'true', search, pageSize: 20, sort: 'FirstName' }));
}

/** One doctor by user id, when the form already names them (an order, a draft); none for null. */
export function useNamedDoctor(userId: string | null) {
  return useQuery({ ...doctorListQueryOptions({ userId: Number(userId) }), enabled: !!userId });
}
