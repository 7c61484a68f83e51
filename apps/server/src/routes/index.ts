import type { FastifyInstance } from 'fastify';
import { assistantRoutes } from './assistants/index.ts';
import { auditRoutes } from './audit/index.ts';
import { authRoutes } from './auth/index.ts';
import { caseRoutes } from './cases/index.ts';
import { clinicRoutes } from './clinics/index.ts';
import { doctorRoutes } from './doctors/index.ts';
import { emailRoutes } from './email/index.ts';
import { eventRoutes } from './events/index.ts';
import { geographyRoutes } from './geography/index.ts';
import { healthRoutes } from './health/index.ts';
import { messageRoutes } from './messages/index.ts';
import { permissionRoutes } from './permissions/index.ts';
import { planRoutes } from './plans/index.ts';
import { progressScanRoutes } from './plans/progress-scans.ts';
import { roleRoutes } from './roles/index.ts';
import { uploadRoutes } from './uploads/index.ts';
import { userRoutes } from './users/index.ts';
import { doctorPreferenceRoutes } from './doctor-preferences/index.ts';
import { prescriptionRoutes } from './prescription/index.ts';
import { caseDraftRoutes } from './case-drafts/index.ts';
import { secondFactorRoutes } from './second-factor/index.ts';
import { sessionRoutes } from './sessions/index.ts';
import { sharedPlanRoutes } from './shared/index.ts';
import { inboxRoutes } from './inbox/index.ts';
import { settingsRoutes } from './settings/index.ts';

/** Every API area; each route's full path comes from its row in the contract's endpoint table. */
export async function apiRoutes(app: FastifyInstance) {
  // Set by the preHandler of a route whose row names a record (routes/records.ts).
  app.decorateRequest('record', undefined);
  for (const areaRoutes of [
    healthRoutes,
    authRoutes,
    sessionRoutes,
    roleRoutes,
    permissionRoutes,
    userRoutes,
    doctorRoutes,
    assistantRoutes,
    clinicRoutes,
    geographyRoutes,
    emailRoutes,
    uploadRoutes,
    caseRoutes,
    auditRoutes,
    eventRoutes,
    messageRoutes,
    planRoutes,
    progressScanRoutes,
    sharedPlanRoutes,
    doctorPreferenceRoutes,
    prescriptionRoutes,
    caseDraftRoutes,
    secondFactorRoutes,
    inboxRoutes,
    settingsRoutes,
  ]) {
    await app.register(areaRoutes);
  }
}
