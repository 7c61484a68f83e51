import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { rolesQueryOptions } from './get-roles.ts';

export const deleteRole = (roleId: number) => api.delete<{ message: string }>(`/role/delete/${roleId}`);

export function useDeleteRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRole,
    onSuccess: () => queryClient.invalidateQueries(rolesQueryOptions()),
  });
}
