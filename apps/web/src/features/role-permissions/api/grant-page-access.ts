import { useMutation, useQueryClient } from '@tanstack/react-query';
import { backgroundApi } from '../../../lib/api-client.ts';
import { pageAccessChange } from './get-role-permissions.ts';

export interface PageAccess {
  roleId: number;
  pageId: number;
}

export const grantPageAccess = ({ roleId, pageId }: PageAccess) =>
  // No overlay: the box shows the change at once and goes back if it is refused.
  backgroundApi.call('POST /api/permission/add/:roleId/:pageId', { params: { roleId, pageId } });

export function useGrantPageAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: grantPageAccess,
    ...pageAccessChange(queryClient, true),
  });
}
