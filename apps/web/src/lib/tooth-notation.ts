import type { NumberingSystem } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { settingsKeys } from './shared-queries.ts';

/**
 * The caller's tooth notation: as chosen on the profile page, else the default by their
 * clinic's country (docs/decisions/tooth-notation.md). Every feature that names teeth reads it.
 */
const toothNotationQueryOptions = () =>
  queryOptions({
    queryKey: settingsKeys.toothNotation(),
    queryFn: () => api.call('GET /api/account/tooth-notation', {}),
    // Changed only on the profile page, which writes the answer into the cache.
    staleTime: Infinity,
  });

/**
 * The notation the signed-in user reads teeth in; `fallback` (the case's own numbering, where a
 * screen has one) until the account's is known or when it cannot be read.
 */
export function useToothNotation(): NumberingSystem | undefined;
export function useToothNotation(fallback: NumberingSystem): NumberingSystem;
export function useToothNotation(fallback?: NumberingSystem): NumberingSystem | undefined {
  return useQuery(toothNotationQueryOptions()).data?.toothNotation ?? fallback;
}
