import { messageResponse } from '../common.ts';
import { doctorPreferences, doctorPreferencesAnswer } from '../doctor-preferences.ts';
import { defineEndpoint } from '../endpoint.ts';

/** Doctors alone: staff have no usual choices of their own (no page grants these). */
const doctorsOnly = { pages: [], doctors: true } as const;

export const doctorPreferenceEndpoints = {
  doctorPreferencesGet: defineEndpoint({
    method: 'GET',
    path: '/api/doctor/preferences',
    operationId: 'doctorPreferencesGet',
    summary: "The signed-in doctor's usual case choices (empty before any save)",
    tag: 'doctors',
    access: doctorsOnly,
    answer: doctorPreferencesAnswer,
  }),
  doctorPreferencesSave: defineEndpoint({
    method: 'PUT',
    path: '/api/doctor/preferences',
    operationId: 'doctorPreferencesSave',
    summary: "Keep the signed-in doctor's usual case choices; a new case starts from them",
    tag: 'doctors',
    access: doctorsOnly,
    body: doctorPreferences,
    answer: messageResponse,
  }),
};
