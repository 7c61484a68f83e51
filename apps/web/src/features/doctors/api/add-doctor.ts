import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { doctorsQueryOptions } from './get-doctors.ts';

/** Multipart: the doctor's fields, clinicList as a JSON string, and an optional profilePic. */
export const addDoctor = (form: FormData) => api.postForm<{ message: string; DoctorId: number }>('/doctor/add', form);

export function useAddDoctor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addDoctor,
    onSuccess: () => queryClient.invalidateQueries(doctorsQueryOptions()),
  });
}
