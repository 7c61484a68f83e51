import { endpoints } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { setPageAccessLocally } from './get-role-permissions.ts';
import type { PageAccess } from './grant-page-access.ts';

export const revokePageAccess = ({ roleId, pageId }: PageAccess) =>
  api.call(endpoints.permissionRevoke, { params: { roleId, pageId } });

export function useRevokePageAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokePageAccess,
    onSuccess: (_answer, { roleId, pageId }) => setPageAccessLocally(queryClient, roleId, pageId, false),
  });
}
