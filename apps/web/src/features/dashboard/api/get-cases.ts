import type { CaseListQuery, CaseRow, CaseStatusFilter } from '@portal/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export interface CaseListParams {
  status: CaseStatusFilter;
  /** The doctor's own user id, or 0 for staff (every case). */
  userId: number;
  page: number;
  pageSize: number;
  search: string;
  sort: NonNullable<CaseListQuery['sort']>;
}

/** One page of cases (the paged form of ARCHITECTURE.md) and the count of all matching rows. */
export async function getCases(
  params: CaseListParams,
  signal?: AbortSignal,
): Promise<{ rows: CaseRow[]; total: number }> {
  const query = new URLSearchParams({
    page: String(params.page),
    pageSize: String(params.pageSize),
    sort: params.sort,
  });
  const search = params.search.trim();
  if (search) query.set('search', search);
  const { data, headers } = await apiRequest<CaseRow[]>(
    `/case/get_cases_by_status/${params.status}/${params.userId}?${query}`,
    { signal },
  );
  return { rows: data, total: Number(headers.get('x-total-count') ?? data.length) };
}

export const casesQueryOptions = (params: CaseListParams) =>
  queryOptions({
    queryKey: ['cases', 'list', params],
    queryFn: ({ signal }) => getCases(params, signal),
    // The table keeps the current page on screen while the next one loads.
    placeholderData: keepPreviousData,
  });

export const useCases = (params: CaseListParams) => useQuery(casesQueryOptions(params));
