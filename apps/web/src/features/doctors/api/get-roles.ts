import type { Role } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** The roles a doctor may be given; the same list (and cache entry) the Roles screen reads. */
export const getRoles = () => api.get<Role[]>('/role/get_roles_list');

export const rolesQueryOptions = () => queryOptions({ queryKey: ['roles'], queryFn: getRoles });

export const useRoles = (isEnabled: boolean) => useQuery({ ...rolesQueryOptions(), enabled: isEnabled });
