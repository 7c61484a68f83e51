import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { userKeys } from './query-keys.ts';

export const getUsers = () => api.call('GET /api/user/get_users_list');

export const usersQueryOptions = () => queryOptions({ queryKey: userKeys.all, queryFn: getUsers });

export const useUsers = () => useQuery(usersQueryOptions());
