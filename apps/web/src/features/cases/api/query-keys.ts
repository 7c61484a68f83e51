import { caseKeys } from '../../../lib/shared-queries.ts';

export const caseDetailKeys = {
  history: caseKeys.history,
  attachments: (caseId: number) => [...caseKeys.all, 'attachments', caseId] as const,
};

export const clinicsByUserKeys = {
  all: ['clinics-by-user'] as const,
  ofUser: (userId: number) => [...clinicsByUserKeys.all, userId] as const,
};
