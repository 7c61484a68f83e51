import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { caseDetailKeys } from './query-keys.ts';

/** One case, every field as read, with its doctor and status. */
export const getCase = (caseId: number) => api.call('GET /api/case/:caseId', { params: { caseId } });

export const caseQueryOptions = (caseId: number) =>
  queryOptions({ queryKey: caseDetailKeys.detail(caseId), queryFn: () => getCase(caseId) });

export const useCase = (caseId: number, options: { enabled?: boolean } = {}) =>
  useQuery({ ...caseQueryOptions(caseId), ...options });
