import type { RoleRequest } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { rolesQueryOptions } from './get-roles.ts';

export const updateRole = ({ roleId, input }: { roleId: number; input: RoleRequest }) =>
  api.put<{ message: string }>(`/role/edit/${roleId}`, input);

export function useUpdateRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateRole,
    onSuccess: () => queryClient.invalidateQueries(rolesQueryOptions()),
  });
}
