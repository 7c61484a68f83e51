import { caseKeys } from '../../../lib/shared-queries.ts';

export const planKeys = {
  ofCase: caseKeys.plans,
};
