import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { messageKeys } from './query-keys.ts';

/** A case's conversation, oldest first. */
export const getCaseMessages = (caseId: number) => api.call('GET /api/case/:caseId/messages', { params: { caseId } });

export const caseMessagesQueryOptions = (caseId: number) =>
  queryOptions({ queryKey: messageKeys.ofCase(caseId), queryFn: () => getCaseMessages(caseId) });

export const useCaseMessages = (caseId: number) => useQuery(caseMessagesQueryOptions(caseId));
