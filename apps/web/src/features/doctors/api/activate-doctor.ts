import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { doctorKeys } from '../../../lib/shared-queries.ts';

/** One click: the server activates the doctor and sends the activation e-mail. */
export const activateDoctor = (doctorId: number) =>
  api.call('POST /api/doctor/activate/:id', { params: { id: doctorId } });

export function useActivateDoctor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: activateDoctor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: doctorKeys.all }),
  });
}
