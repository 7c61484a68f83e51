import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { resetTokenKeys } from './query-keys.ts';

export const verifyResetToken = (token: string) =>
  api.call('GET /api/doctor/verify_token/:token', { params: { token } });

export const verifyResetTokenQueryOptions = (token: string) =>
  queryOptions({
    queryKey: resetTokenKeys.verification(token),
    queryFn: () => verifyResetToken(token),
    staleTime: 0,
    gcTime: 0,
  });

/** Whether an e-mailed reset link still works; nothing is asked without a token. */
export const useVerifyResetToken = (token: string | null) =>
  useQuery({ ...verifyResetTokenQueryOptions(token ?? ''), enabled: token !== null });
