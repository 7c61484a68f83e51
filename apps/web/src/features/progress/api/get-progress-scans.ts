import type { ProgressScanListItem, ProgressScanState } from '@portal/contract';
import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { progressKeys } from './query-keys.ts';

/** While a scan is being fitted, asked for again this often: the live event is the quick way, this the fallback. */
const fittingPollMs = 3000;

export const isFitting = (state: ProgressScanState) => state === 'queued' || state === 'running';

/** A case's progress scans, newest first, with their states and summaries (docs/decisions/progress-scans.md). */
export const useProgressScans = (caseId: number) =>
  useQuery({
    queryKey: progressKeys.list(caseId),
    queryFn: () => api.call('GET /api/case/:caseId/progress-scans', { params: { caseId } }),
    refetchInterval: (query) => (query.state.data?.some((scan) => isFitting(scan.state)) ? fittingPollMs : false),
  });

const progressScanQuery = (caseId: number, progressScanId: number) =>
  queryOptions({
    queryKey: progressKeys.one(caseId, progressScanId),
    queryFn: () =>
      api.call('GET /api/case/:caseId/progress-scans/:progressScanId', { params: { caseId, progressScanId } }),
    refetchInterval: (query) => (query.state.data && isFitting(query.state.data.state) ? fittingPollMs : false),
  });

/** One scan's whole result: per arch the fit and each tooth against the planned stage. */
export const useProgressScan = (caseId: number, progressScanId: number, options: { enabled?: boolean } = {}) =>
  useQuery({ ...progressScanQuery(caseId, progressScanId), enabled: options.enabled ?? true });

/** The most done scans whose results make a tooth's trend: a case keeps up to 100, a trend reads the latest. */
export const maxTrendScans = 12;

/**
 * The results of the case's done scans, oldest first (at most the latest `maxTrendScans`): each
 * tooth's offset over the treatment. A done result does not change, so it is read once.
 */
export function useDoneResults(caseId: number, scans: readonly ProgressScanListItem[]) {
  const done = scans
    .filter((scan) => scan.state === 'done')
    .slice(0, maxTrendScans)
    .reverse();
  return useQueries({
    queries: done.map((scan) => ({ ...progressScanQuery(caseId, scan.progressScanId), staleTime: Infinity })),
    combine: (results) => results.flatMap((result) => (result.data ? [result.data] : [])),
  });
}
