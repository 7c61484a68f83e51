import type { Role } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const getRoles = () => api.get<Role[]>('/role/get_roles_list');

export const rolesQueryOptions = () => queryOptions({ queryKey: ['roles'], queryFn: getRoles });

export const useRoles = () => useQuery(rolesQueryOptions());
