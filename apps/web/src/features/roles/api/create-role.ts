import type { RoleRequest } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { rolesQueryOptions } from './get-roles.ts';

export const createRole = (input: RoleRequest) => api.post<{ message: string; RoleId: number }>('/role/add', input);

export function useCreateRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRole,
    onSuccess: () => queryClient.invalidateQueries(rolesQueryOptions()),
  });
}
