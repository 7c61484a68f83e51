import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

const secondFactorKeys = { mine: ['second-factor', 'mine'] as const };

export const useMySecondFactors = () =>
  useQuery(
    queryOptions({ queryKey: secondFactorKeys.mine, queryFn: () => api.call('GET /api/account/second-factor') }),
  );

/** The list is read again after any change to the caller's factors. */
export const useRefreshSecondFactors = () => {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: secondFactorKeys.mine });
};

function useFactorChange<T, R>(change: (input: T) => Promise<R>) {
  const refresh = useRefreshSecondFactors();
  return useMutation({ mutationFn: change, onSuccess: refresh });
}

export const useRemoveTotp = () => useFactorChange(() => api.call('DELETE /api/account/second-factor/totp'));

export const useRemovePasskey = () =>
  useFactorChange((id: number) => api.call('DELETE /api/account/second-factor/passkey/:id', { params: { id } }));

export const useNewRecoveryCodes = () =>
  useFactorChange(() => api.call('POST /api/account/second-factor/recovery-codes'));
