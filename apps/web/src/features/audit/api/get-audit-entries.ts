import type { AuditAction, AuditOutcome } from '@portal/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { auditKeys } from './query-keys.ts';

export interface AuditListParams {
  page: number;
  pageSize: number;
  action: AuditAction | null;
  /** A username, matched whole and in any case. */
  actor: string;
  outcome: AuditOutcome | null;
}

/** One page of the audit log, newest first, and the count of all matching entries. */
export async function getAuditEntries(params: AuditListParams, signal?: AbortSignal) {
  const { data, headers } = await api.callWithHeaders(
    'GET /api/audit',
    {
      query: {
        page: params.page,
        pageSize: params.pageSize,
        action: params.action ?? undefined,
        actor: params.actor.trim() || undefined,
        outcome: params.outcome ?? undefined,
      },
    },
    { signal },
  );
  return { rows: data, total: Number(headers.get('x-total-count') ?? data.length) };
}

export const auditEntriesQueryOptions = (params: AuditListParams) =>
  queryOptions({
    queryKey: auditKeys.list(params),
    queryFn: ({ signal }) => getAuditEntries(params, signal),
    placeholderData: keepPreviousData,
  });

export const useAuditEntries = (params: AuditListParams) => useQuery(auditEntriesQueryOptions(params));
