import type { CaseStats } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { caseKeys } from '../../../lib/shared-queries.ts';

const noCases: CaseStats = {
  newcases: 0,
  total: 0,
  inprogress: 0,
  dispatched: 0,
  delivered: 0,
  awaitingApproval: 0,
  changesRequested: 0,
};

/** The tiles' counts: a doctor's own cases (their user id) or, for staff, every case (0). */
export const getCaseStats = async (userId: number): Promise<CaseStats> =>
  (await api.call('GET /api/case/get_all_stats/:userId', { params: { userId } }))[0] ?? noCases;

export const caseStatsQueryOptions = (userId: number) =>
  queryOptions({ queryKey: caseKeys.stats(userId), queryFn: () => getCaseStats(userId) });

export const useCaseStats = (userId: number) => useQuery(caseStatsQueryOptions(userId));
