import type { User } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const getUsers = () => api.get<User[]>('/user/get_users_list');

export const usersQueryOptions = () => queryOptions({ queryKey: ['users'], queryFn: getUsers });

export const useUsers = () => useQuery(usersQueryOptions());
