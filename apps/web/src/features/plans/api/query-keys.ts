import { caseKeys } from '../../../lib/shared-queries.ts';

export const planKeys = {
  ofCase: caseKeys.plans,
  movements: (caseId: number, planId: number) => [...caseKeys.plans(caseId), planId, 'movements'] as const,
  comments: (caseId: number, planId: number) => [...caseKeys.plans(caseId), planId, 'comments'] as const,
  shares: (caseId: number, planId: number) => [...caseKeys.plans(caseId), planId, 'shares'] as const,
};
