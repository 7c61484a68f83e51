import { caseKeys } from '../../../lib/shared-queries.ts';

export const caseDetailKeys = {
  history: (caseId: number) => [...caseKeys.all, 'history', caseId] as const,
  attachments: (caseId: number) => [...caseKeys.all, 'attachments', caseId] as const,
};

export const clinicsByUserKeys = {
  all: ['clinics-by-user'] as const,
  ofUser: (userId: number) => [...clinicsByUserKeys.all, userId] as const,
};
