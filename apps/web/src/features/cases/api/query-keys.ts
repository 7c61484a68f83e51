import { caseKeys } from '../../../lib/shared-queries.ts';

export const caseDetailKeys = {
  detail: caseKeys.detail,
  timeline: caseKeys.timeline,
  attachments: (caseId: number) => [...caseKeys.all, 'attachments', caseId] as const,
  notes: (caseId: number) => [...caseKeys.all, 'notes', caseId] as const,
};

export const clinicsByUserKeys = {
  all: ['clinics-by-user'] as const,
  ofUser: (userId: number) => [...clinicsByUserKeys.all, userId] as const,
};

/** The signed-in doctor's case defaults (GET /doctor/preferences). */
export const caseDefaultsKeys = {
  own: ['case-defaults'] as const,
};

/** The caller's case drafts (GET /case/drafts) and one draft whole. */
export const caseDraftKeys = {
  all: ['case-drafts'] as const,
  one: (draftId: number) => [...caseDraftKeys.all, draftId] as const,
};

/** The doctors the signed-in assistant works for (GET /assistant/doctors). */
export const servedDoctorKeys = {
  own: ['served-doctors'] as const,
};
