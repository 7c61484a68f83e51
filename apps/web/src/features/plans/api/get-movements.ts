import type { PlanMovementsAnswer } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { planKeys } from './query-keys.ts';

/** While a version's movements are being measured (a minute after upload), asked for again this often. */
const measuringPollMs = 5000;

const isMeasuring = (answer: PlanMovementsAnswer | undefined) => answer?.reason?.includes('being measured') ?? false;

/** How far each tooth of a plan version moves (docs/decisions/plans.md § Tooth movements). */
export const useMovements = (caseId: number, planId: number) =>
  useQuery({
    queryKey: planKeys.movements(caseId, planId),
    queryFn: () => api.call('GET /api/case/:caseId/plans/:planId/movements', { params: { caseId, planId } }),
    refetchInterval: (query) => (isMeasuring(query.state.data) ? measuringPollMs : false),
  });
