import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { menuKeys } from '../../../lib/shared-queries.ts';
import { rolePermissionKeys } from './query-keys.ts';

export const getRolePermissions = (roleId: number) =>
  api.call('GET /api/permission/get_role_permissions/:roleId', { params: { roleId } });

export const rolePermissionsQueryOptions = (roleId: number) =>
  queryOptions({ queryKey: rolePermissionKeys.ofRole(roleId), queryFn: () => getRolePermissions(roleId) });

export const useRolePermissions = (roleId: number | null) =>
  useQuery({ ...rolePermissionsQueryOptions(roleId ?? 0), enabled: roleId !== null });

const setPageAccessLocally = (queryClient: QueryClient, roleId: number, pageId: number, hasAccess: boolean) =>
  queryClient.setQueryData(rolePermissionsQueryOptions(roleId).queryKey, (rows) =>
    rows?.map((row) => (row.PageId === pageId ? { ...row, HasAccess: hasAccess } : row)),
  );

/**
 * A grant or revoke shown at once (an optimistic update): the box changes before the call,
 * goes back if the server refuses, and the role's menu is read again once it has answered.
 */
export const pageAccessChange = (queryClient: QueryClient, hasAccess: boolean) => ({
  onMutate: async ({ roleId, pageId }: { roleId: number; pageId: number }) => {
    await queryClient.cancelQueries({ queryKey: rolePermissionsQueryOptions(roleId).queryKey });
    setPageAccessLocally(queryClient, roleId, pageId, hasAccess);
  },
  onError: (_error: unknown, { roleId, pageId }: { roleId: number; pageId: number }) => {
    setPageAccessLocally(queryClient, roleId, pageId, !hasAccess);
  },
  onSettled: (_answer: unknown, _error: unknown, { roleId }: { roleId: number; pageId: number }) =>
    queryClient.invalidateQueries({ queryKey: menuKeys.ofRole(roleId) }),
});
