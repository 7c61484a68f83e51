import { caseKeys } from '../../../lib/shared-queries.ts';

export const progressKeys = {
  ofCase: caseKeys.progressScans,
  list: (caseId: number) => [...caseKeys.progressScans(caseId), 'list'] as const,
  one: (caseId: number, progressScanId: number) => [...caseKeys.progressScans(caseId), progressScanId] as const,
};
