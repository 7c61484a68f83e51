import { endpoints } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { getDoctorPreferences, saveDoctorPreferences } from '../../services/doctor-preferences.ts';
import { route } from '../define-route.ts';

/** A doctor's usual case choices (docs/decisions/case-form.md § Doctor defaults). */
export async function doctorPreferenceRoutes(app: FastifyInstance) {
  route(app, endpoints.doctorPreferencesGet, {}, (request) => getDoctorPreferences(app.db, request.user.userId));

  route(
    app,
    endpoints.doctorPreferencesSave,
    { audit: { action: 'doctor.preferences', target: (request) => `user:${request.user?.userId}` } },
    async (request) => {
      await saveDoctorPreferences(app.db, request.user.userId, request.body);
      return { message: 'Case defaults saved' };
    },
  );
}
