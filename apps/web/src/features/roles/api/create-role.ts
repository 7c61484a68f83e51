import { endpoints, type RoleRequest } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { roleKeys } from '../../../lib/shared-queries.ts';

export const createRole = (input: RoleRequest) => api.call(endpoints.roleCreate, { body: input });

export function useCreateRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRole,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: roleKeys.all }),
  });
}
