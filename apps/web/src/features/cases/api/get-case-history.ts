import { endpoints } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { caseDetailKeys } from './query-keys.ts';

/** Every status the case has had, oldest first, with who changed it and when. */
export const getCaseHistory = (caseId: number) => api.call(endpoints.caseHistory, { params: { caseId } });

export const caseHistoryQueryOptions = (caseId: number) =>
  queryOptions({ queryKey: caseDetailKeys.history(caseId), queryFn: () => getCaseHistory(caseId) });

export const useCaseHistory = (caseId: number) => useQuery(caseHistoryQueryOptions(caseId));
