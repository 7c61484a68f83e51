import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { doctorsQueryOptions } from './get-doctors.ts';

export const deleteDoctor = (doctorId: number) => api.delete<{ message: string }>(`/doctor/delete/${doctorId}`);

export function useDeleteDoctor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDoctor,
    onSuccess: () => queryClient.invalidateQueries(doctorsQueryOptions()),
  });
}
