import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { planKeys } from './query-keys.ts';

/** A case's treatment plan versions, newest first, each with its stage files' URLs. */
export const getPlans = (caseId: number) => api.call('GET /api/case/:caseId/plans', { params: { caseId } });

export const plansQueryOptions = (caseId: number) =>
  queryOptions({
    queryKey: planKeys.ofCase(caseId),
    queryFn: () => getPlans(caseId),
    // A version being checked against the prescription: read again until its movements are measured.
    refetchInterval: (query) =>
      query.state.data?.some((plan) => plan.findingsCheck.state === 'pending') ? 3000 : false,
  });

export const usePlans = (caseId: number) => useQuery(plansQueryOptions(caseId));
