import { endpoints } from '@portal/contract';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { menuKeys } from '../../../lib/shared-queries.ts';
import { rolePermissionKeys } from './query-keys.ts';

export const getRolePermissions = (roleId: number) => api.call(endpoints.permissionList, { params: { roleId } });

export const rolePermissionsQueryOptions = (roleId: number) =>
  queryOptions({ queryKey: rolePermissionKeys.ofRole(roleId), queryFn: () => getRolePermissions(roleId) });

export const useRolePermissions = (roleId: number | null) =>
  useQuery({ ...rolePermissionsQueryOptions(roleId ?? 0), enabled: roleId !== null });

/** After a grant or revoke succeeds, the row changes in place; the role's menu is read again. */
export async function setPageAccessLocally(
  queryClient: QueryClient,
  roleId: number,
  pageId: number,
  hasAccess: boolean,
) {
  queryClient.setQueryData(rolePermissionsQueryOptions(roleId).queryKey, (rows) =>
    rows?.map((row) => (row.PageId === pageId ? { ...row, HasAccess: hasAccess } : row)),
  );
  await queryClient.invalidateQueries({ queryKey: menuKeys.ofRole(roleId) });
}
