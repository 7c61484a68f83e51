import { auditEndpoints } from './audit.ts';
import { authEndpoints } from './auth.ts';
import { caseEndpoints } from './cases.ts';
import { clinicEndpoints, geographyEndpoints } from './clinics.ts';
import { doctorEndpoints } from './doctors.ts';
import { emailEndpoints } from './email.ts';
import { eventEndpoints } from './events.ts';
import { healthEndpoints } from './health.ts';
import { messageEndpoints } from './messages.ts';
import { permissionEndpoints } from './permissions.ts';
import { planEndpoints } from './plans.ts';
import { roleEndpoints } from './roles.ts';
import { uploadEndpoints } from './uploads.ts';
import { userEndpoints } from './users.ts';
import { doctorPreferenceEndpoints } from './doctor-preferences.ts';
import { prescriptionEndpoints } from './prescription.ts';
import { caseDraftEndpoints } from './case-drafts.ts';
import { secondFactorEndpoints } from './second-factor.ts';
import { sessionEndpoints } from './sessions.ts';
import { inboxEndpoints } from './inbox.ts';
import { assistantEndpoints } from './assistants.ts';
import { settingsEndpoints } from './settings.ts';
import { progressScanEndpoints } from './progress-scans.ts';

export { pictureRemoval } from './common.ts';

/**
 * Every API endpoint, once: the server registers its routes from these rows, the OpenAPI
 * document describes them, and the web app's client calls them.
 */
export const endpoints = {
  ...healthEndpoints,
  ...authEndpoints,
  ...sessionEndpoints,
  ...roleEndpoints,
  ...permissionEndpoints,
  ...userEndpoints,
  ...doctorEndpoints,
  ...assistantEndpoints,
  ...clinicEndpoints,
  ...geographyEndpoints,
  ...emailEndpoints,
  ...uploadEndpoints,
  ...caseEndpoints,
  ...auditEndpoints,
  ...eventEndpoints,
  ...messageEndpoints,
  ...planEndpoints,
  ...doctorPreferenceEndpoints,
  ...prescriptionEndpoints,
  ...caseDraftEndpoints,
  ...secondFactorEndpoints,
  ...inboxEndpoints,
  ...settingsEndpoints,
  ...progressScanEndpoints,
};
export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;

/** The OpenAPI tags, in the order the document lists them. */
export const endpointTags = [
  { name: 'health', description: 'Liveness and readiness probes for load balancers' },
  { name: 'auth', description: 'Signing in and out, the second step of a sign-in, passkey sign-in' },
  {
    name: 'second-factor',
    description: "The caller's own second factors: authenticator app, recovery codes, passkeys",
  },
  { name: 'sessions', description: 'Signed-in devices: listing and ending sessions' },
  { name: 'roles', description: 'Roles of Web users (the Roles page)' },
  { name: 'permissions', description: 'Which pages each role has (the Role Permissions page), and menus' },
  { name: 'users', description: 'Web users: the lab staff (the Users page)' },
  { name: 'doctors', description: 'Doctors: registration, the Doctors page, password reset links' },
  {
    name: 'assistants',
    description: "Doctors' assistants: invitations, revocation, the doctors an assistant works for",
  },
  { name: 'clinics', description: "Doctors' clinics" },
  { name: 'geography', description: 'Countries and cities for addresses' },
  { name: 'email', description: 'Templated e-mails to doctors' },
  { name: 'uploads', description: 'Profile pictures and avatars' },
  { name: 'cases', description: 'Case submission, lists, status workflow and files' },
  { name: 'audit', description: "The audit log (the administrator's)" },
  { name: 'events', description: 'Live updates as Server-Sent Events' },
  { name: 'plans', description: "Treatment plan versions and the doctor's approval" },
  { name: 'inbox', description: 'What waits for the caller across cases, and their e-mail preferences' },
  {
    name: 'settings',
    description: "The lab's settings (the administrator's Settings screen) and each user's time zone",
  },
] as const;
