import type { AuditAction, AuditEntry, AuditOutcome } from '@portal/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export interface AuditListParams {
  page: number;
  pageSize: number;
  action: AuditAction | null;
  /** A username, matched whole and in any case. */
  actor: string;
  outcome: AuditOutcome | null;
}

/** One page of the audit log, newest first, and the count of all matching entries. */
export async function getAuditEntries(
  params: AuditListParams,
  signal?: AbortSignal,
): Promise<{ rows: AuditEntry[]; total: number }> {
  const query = new URLSearchParams({ page: String(params.page), pageSize: String(params.pageSize) });
  if (params.action) query.set('action', params.action);
  if (params.actor.trim()) query.set('actor', params.actor.trim());
  if (params.outcome) query.set('outcome', params.outcome);
  const { data, headers } = await apiRequest<AuditEntry[]>(`/audit?${query}`, { signal });
  return { rows: data, total: Number(headers.get('x-total-count') ?? data.length) };
}

export const auditEntriesQueryOptions = (params: AuditListParams) =>
  queryOptions({
    queryKey: ['audit', params],
    queryFn: ({ signal }) => getAuditEntries(params, signal),
    placeholderData: keepPreviousData,
  });

export const useAuditEntries = (params: AuditListParams) => useQuery(auditEntriesQueryOptions(params));
