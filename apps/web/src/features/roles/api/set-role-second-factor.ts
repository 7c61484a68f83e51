import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { roleKeys } from '../../../lib/shared-queries.ts';

/** The administrator's switch: this role's users sign in with a second factor. */
export function useSetRoleSecondFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ roleId, required }: { roleId: number; required: boolean }) =>
      api.call('PUT /api/role/second-factor/:id', { params: { id: roleId }, body: { required } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: roleKeys.all }),
  });
}
