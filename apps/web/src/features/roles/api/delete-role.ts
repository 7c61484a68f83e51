import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { roleKeys } from '../../../lib/shared-queries.ts';

export const deleteRole = (roleId: number) => api.call('DELETE /api/role/delete/:id', { params: { id: roleId } });

export function useDeleteRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRole,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: roleKeys.all }),
  });
}
