import type { RoleRequest } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { roleKeys } from '../../../lib/shared-queries.ts';

export const createRole = (input: RoleRequest) => api.call('POST /api/role/add', { body: input });

export function useCreateRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRole,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: roleKeys.all }),
  });
}
