import type { Doctor } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** The answer is an array; its first element is the doctor (portal-spec.md section 7). */
export const getDoctorByUserId = async (userId: number) =>
  (await api.get<Doctor[]>(`/doctor/get_doctor_detail_by_user_Id/${userId}`))[0] ?? null;

export const doctorByUserIdQueryOptions = (userId: number) =>
  queryOptions({ queryKey: ['doctors', 'by-user', userId], queryFn: () => getDoctorByUserId(userId) });

export const useDoctorByUserId = (userId: number) => useQuery(doctorByUserIdQueryOptions(userId));
