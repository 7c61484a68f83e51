import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { doctorKeys } from '../../../lib/shared-queries.ts';

/** Multipart: the doctor's fields, clinicList as a JSON string, and an optional profilePic. */
export const addDoctor = (form: FormData) => api.call('POST /api/doctor/add', { body: form });

export function useAddDoctor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addDoctor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: doctorKeys.all }),
  });
}
