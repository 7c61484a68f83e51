import { endpoints } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { setPageAccessLocally } from './get-role-permissions.ts';

export interface PageAccess {
  roleId: number;
  pageId: number;
}

export const grantPageAccess = ({ roleId, pageId }: PageAccess) =>
  api.call(endpoints.permissionGrant, { params: { roleId, pageId } });

export function useGrantPageAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: grantPageAccess,
    onSuccess: (_answer, { roleId, pageId }) => setPageAccessLocally(queryClient, roleId, pageId, true),
  });
}
