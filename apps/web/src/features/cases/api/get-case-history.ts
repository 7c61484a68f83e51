import type { CaseHistoryEntry } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** Every status the case has had, oldest first, with who changed it and when. */
export const getCaseHistory = (caseId: number) => api.get<CaseHistoryEntry[]>(`/case/get_case_history/${caseId}`);

export const caseHistoryQueryOptions = (caseId: number) =>
  queryOptions({ queryKey: ['cases', 'history', caseId], queryFn: () => getCaseHistory(caseId) });

export const useCaseHistory = (caseId: number) => useQuery(caseHistoryQueryOptions(caseId));
