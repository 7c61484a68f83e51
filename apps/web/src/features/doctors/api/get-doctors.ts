import type { Doctor } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const getDoctors = () => api.get<Doctor[]>('/doctor/get_doctors_list');

export const doctorsQueryOptions = () => queryOptions({ queryKey: ['doctors'], queryFn: getDoctors });

export const useDoctors = () => useQuery(doctorsQueryOptions());
