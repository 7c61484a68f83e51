import { useMutation, useQueryClient } from '@tanstack/react-query';
import { backgroundApi } from '../../../lib/api-client.ts';
import { pageAccessChange } from './get-role-permissions.ts';
import type { PageAccess } from './grant-page-access.ts';

export const revokePageAccess = ({ roleId, pageId }: PageAccess) =>
  // No overlay: the box shows the change at once and goes back if it is refused.
  backgroundApi.call('DELETE /api/permission/delete/:roleId/:pageId', { params: { roleId, pageId } });

export function useRevokePageAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokePageAccess,
    ...pageAccessChange(queryClient, false),
  });
}
