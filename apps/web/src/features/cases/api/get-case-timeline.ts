import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { caseDetailKeys } from './query-keys.ts';

/** The case's timeline, oldest first: its submission, its files, each status change. */
export const getCaseTimeline = (caseId: number) => api.call('GET /api/case/:caseId/timeline', { params: { caseId } });

export const caseTimelineQueryOptions = (caseId: number) =>
  queryOptions({ queryKey: caseDetailKeys.timeline(caseId), queryFn: () => getCaseTimeline(caseId) });

export const useCaseTimeline = (caseId: number) => useQuery(caseTimelineQueryOptions(caseId));
