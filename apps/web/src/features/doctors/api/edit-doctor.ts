import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { doctorKeys } from '../../../lib/shared-queries.ts';
import { clinicKeys } from './query-keys.ts';

/** Going from Inactive to Active makes the server send the activation e-mail itself. */
export const editDoctor = ({ doctorId, form }: { doctorId: number; form: FormData }) =>
  api.call('PUT /api/doctor/edit/:id', { params: { id: doctorId }, body: form });

export function useEditDoctor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: editDoctor,
    onSuccess: (_answer, { doctorId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: doctorKeys.all }),
        queryClient.invalidateQueries({ queryKey: clinicKeys.ofDoctor(doctorId) }),
      ]),
  });
}
