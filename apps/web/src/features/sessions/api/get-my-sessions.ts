import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { sessionKeys } from './query-keys.ts';

export const getMySessions = () => api.call('GET /api/auth/sessions');

export const mySessionsQueryOptions = () => queryOptions({ queryKey: sessionKeys.mine, queryFn: getMySessions });

export const useMySessions = () => useQuery(mySessionsQueryOptions());
