import { caseKeys } from '../../../lib/shared-queries.ts';

export const caseDetailKeys = {
  detail: (caseId: number) => [...caseKeys.all, 'detail', caseId] as const,
  timeline: (caseId: number) => [...caseKeys.all, 'timeline', caseId] as const,
  attachments: (caseId: number) => [...caseKeys.all, 'attachments', caseId] as const,
};

export const clinicsByUserKeys = {
  all: ['clinics-by-user'] as const,
  ofUser: (userId: number) => [...clinicsByUserKeys.all, userId] as const,
};
