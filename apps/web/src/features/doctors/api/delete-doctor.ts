import { endpoints } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { doctorKeys } from '../../../lib/shared-queries.ts';

export const deleteDoctor = (doctorId: number) => api.call(endpoints.doctorDelete, { params: { id: doctorId } });

export function useDeleteDoctor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDoctor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: doctorKeys.all }),
  });
}
