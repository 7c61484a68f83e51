import type { ResetPasswordRequest } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** Answers 400 with { success: false } when the link is used up or expired. */
export const resetPassword = (input: ResetPasswordRequest) =>
  api.call('POST /api/doctor/reset_password', { body: input });

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
