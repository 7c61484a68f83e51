import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/**
 * Removes every second factor of a user and signs them out everywhere: they set one up again
 * at their next sign-in (docs/decisions/second-factor-changes.md § Reset by the lab).
 */
export const resetSecondFactor = (userId: number) =>
  api.call('POST /api/user/:id/second-factor/reset', { params: { id: userId } });

export const useResetSecondFactor = () => useMutation({ mutationFn: resetSecondFactor });
