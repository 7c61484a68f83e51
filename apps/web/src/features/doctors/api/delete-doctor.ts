import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { doctorKeys } from '../../../lib/shared-queries.ts';

export const deleteDoctor = (doctorId: number) =>
  api.call('DELETE /api/doctor/delete/:id', { params: { id: doctorId } });

export function useDeleteDoctor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDoctor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: doctorKeys.all }),
  });
}
