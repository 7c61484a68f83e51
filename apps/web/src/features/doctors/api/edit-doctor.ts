import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { clinicsQueryOptions } from './get-clinics.ts';
import { doctorsQueryOptions } from './get-doctors.ts';

/** Going from Inactive to Active makes the server send the activation e-mail itself. */
export const editDoctor = ({ doctorId, form }: { doctorId: number; form: FormData }) =>
  api.putForm<{ message: string }>(`/doctor/edit/${doctorId}`, form);

export function useEditDoctor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: editDoctor,
    onSuccess: (_answer, { doctorId }) =>
      Promise.all([
        queryClient.invalidateQueries(doctorsQueryOptions()),
        queryClient.invalidateQueries(clinicsQueryOptions(doctorId)),
      ]),
  });
}
