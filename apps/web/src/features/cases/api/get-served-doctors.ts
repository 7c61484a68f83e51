import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { servedDoctorKeys } from './query-keys.ts';

/** The doctors the signed-in assistant works for: Add Case names the case's doctor from these. */
export const getServedDoctors = () => api.call('GET /api/assistant/doctors', {});

export const servedDoctorsQueryOptions = () =>
  queryOptions({ queryKey: servedDoctorKeys.own, queryFn: getServedDoctors });

export const useServedDoctors = ({ enabled }: { enabled: boolean }) =>
  useQuery({ ...servedDoctorsQueryOptions(), enabled });
