import { endpoints } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { caseDetailKeys } from './query-keys.ts';

/** The case's timeline, oldest first: its submission, its files, each status change. */
export const getCaseTimeline = (caseId: number) => api.call(endpoints.caseTimeline, { params: { caseId } });

export const caseTimelineQueryOptions = (caseId: number) =>
  queryOptions({ queryKey: caseDetailKeys.timeline(caseId), queryFn: () => getCaseTimeline(caseId) });

export const useCaseTimeline = (caseId: number) => useQuery(caseTimelineQueryOptions(caseId));
