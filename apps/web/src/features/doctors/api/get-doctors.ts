import { useQuery } from '@tanstack/react-query';
import { doctorListQueryOptions, type DoctorListParams } from '../../../lib/shared-queries.ts';

export const useDoctors = (params: DoctorListParams) => useQuery(doctorListQueryOptions(params));
