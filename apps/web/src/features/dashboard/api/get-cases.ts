import type { CaseAssigneeFilter, CaseListQuery, CaseStatusFilter, PlanState } from '@portal/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { caseKeys } from '../../../lib/shared-queries.ts';

export interface CaseListParams {
  status: CaseStatusFilter;
  /** The doctor's own user id, or 0 for staff (every case). */
  userId: number;
  page: number;
  pageSize: number;
  search: string;
  sort: NonNullable<CaseListQuery['sort']>;
  /** Only cases whose newest plan version is in this state (the plan tiles). */
  planState?: PlanState;
  /** Staff: their own cases as technician, or the unassigned ones. */
  assignee?: CaseAssigneeFilter;
  /** Staff: only the cases past their status's turnaround target. */
  isOverdue?: boolean;
  /** Only cases whose latest progress scan has a tooth off track. */
  isOffTrack?: boolean;
  /** Submitted from and to these days, YYYY-MM-DD. */
  from?: string;
  to?: string;
}

/** One page of cases (the paged form of docs/decisions/lists-and-search.md § Paging) and the count of all matching rows. */
export async function getCases(params: CaseListParams, signal?: AbortSignal) {
  const { data, headers } = await api.callWithHeaders(
    'GET /api/case/get_cases_by_status/:status/:userId',
    {
      params: { status: params.status, userId: params.userId },
      query: {
        page: params.page,
        pageSize: params.pageSize,
        sort: params.sort,
        search: params.search.trim() || undefined,
        planState: params.planState,
        assignee: params.assignee,
        overdue: params.isOverdue ? 'true' : undefined,
        offTrack: params.isOffTrack ? 'true' : undefined,
        from: params.from,
        to: params.to,
      },
    },
    { signal },
  );
  return { rows: data, total: Number(headers.get('x-total-count') ?? data.length) };
}

export const casesQueryOptions = (params: CaseListParams) =>
  queryOptions({
    queryKey: caseKeys.list(params),
    queryFn: ({ signal }) => getCases(params, signal),
    // The table keeps the current page on screen while the next one loads.
    placeholderData: keepPreviousData,
  });

export const useCases = (params: CaseListParams) => useQuery(casesQueryOptions(params));
