import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { doctorDetailKeys } from './query-keys.ts';

/** The answer is an array; its first element is the doctor (docs/spec.md section 7). */
export const getDoctorByUserId = async (userId: number) =>
  (await api.call('GET /api/doctor/get_doctor_detail_by_user_Id/:id', { params: { id: userId } }))[0] ?? null;

export const doctorByUserIdQueryOptions = (userId: number) =>
  queryOptions({ queryKey: doctorDetailKeys.byUser(userId), queryFn: () => getDoctorByUserId(userId) });

export const useDoctorByUserId = (userId: number) => useQuery(doctorByUserIdQueryOptions(userId));
