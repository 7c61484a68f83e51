import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** The server e-mails the doctor a reset link at their own address; the answer never holds it. */
export const requestPasswordReset = (doctorId: number) =>
  api.call('POST /api/doctor/request_password_reset/:id', { params: { id: doctorId } });

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
