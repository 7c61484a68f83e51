import { useQuery } from '@tanstack/react-query';
import { doctorListQueryOptions } from '../../../lib/shared-queries.ts';

export const useDoctors = () => useQuery(doctorListQueryOptions());
