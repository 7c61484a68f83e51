import type { AccountListQuery } from '@portal/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { userKeys } from './query-keys.ts';

/** One page of the Web users (paged, searched and sorted by the server) and how many match. */
export async function getUsers(params: AccountListQuery, signal?: AbortSignal) {
  const query = { ...params, search: params.search?.trim() || undefined };
  const { data, headers } = await api.callWithHeaders('GET /api/user/get_users_list', { query }, { signal });
  return { rows: data, total: Number(headers.get('x-total-count') ?? data.length) };
}

export const usersQueryOptions = (params: AccountListQuery) =>
  queryOptions({
    queryKey: userKeys.list(params),
    queryFn: ({ signal }) => getUsers(params, signal),
    placeholderData: keepPreviousData,
  });

export const useUsers = (params: AccountListQuery) => useQuery(usersQueryOptions(params));
