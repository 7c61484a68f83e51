import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const verifyResetToken = (token: string) =>
  api.get<{ success: boolean; message: string }>(`/doctor/verify_token/${encodeURIComponent(token)}`);

export const verifyResetTokenQueryOptions = (token: string) =>
  queryOptions({ queryKey: ['reset-token', token], queryFn: () => verifyResetToken(token), staleTime: 0, gcTime: 0 });

/** Whether an e-mailed reset link still works; nothing is asked without a token. */
export const useVerifyResetToken = (token: string | null) =>
  useQuery({ ...verifyResetTokenQueryOptions(token ?? ''), enabled: token !== null });
