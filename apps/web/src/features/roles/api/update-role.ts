import type { RoleRequest } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { roleKeys } from '../../../lib/shared-queries.ts';

export const updateRole = ({ roleId, input }: { roleId: number; input: RoleRequest }) =>
  api.call('PUT /api/role/edit/:id', { params: { id: roleId }, body: input });

export function useUpdateRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateRole,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: roleKeys.all }),
  });
}
