import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createApiClient, endpoints } from '@portal/contract';
import { startPortal } from '../../e2e/helpers/portal-process.ts';

/** A running portal's API: benchmarks sign in and seed through the real endpoints. */
export const benchApi = (baseUrl: string) => createApiClient({ baseUrl });

export async function login(baseUrl: string, username: string, password: string) {
  const answer = await benchApi(baseUrl).call(endpoints.login, { body: { username, password } });
  if ('secondFactor' in answer) throw new Error(`${username} needs a second factor to sign in`);
  return answer;
}

/** An active doctor with one clinic; returns their token, user id and clinic id. */
async function activeDoctor(baseUrl: string, adminToken: string, username: string) {
  const api = benchApi(baseUrl);
  const [city] = await api.call(endpoints.cityList, { params: { id: 1 } });
  const form = new FormData();
  const fields = {
    username,
    firstname: 'Bench',
    lastname: 'Doctor',
    password: 'bench-passphrase',
    email: `${username}@bench.test`,
    roleId: '19',
    countryId: '1',
    gender: 'Other',
    clinicList: JSON.stringify([{ clinicId: 0, clinicName: 'Bench Clinic', countryId: 1, cityId: city!.CityId }]),
    isActive: 'true',
  };
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  await api.call(endpoints.doctorCreate, { body: form }, { token: adminToken });
  const session = await login(baseUrl, username, 'bench-passphrase');
  const [clinic] = await api.call(
    endpoints.clinicListOfUser,
    { params: { id: session.userId } },
    { token: session.token },
  );
  return { token: session.token, userId: session.userId, clinicId: clinic!.ClinicId, session, username };
}

/** The text fields of a valid case submission from a doctor's clinic (a Digital Impression). */
export const benchCaseFields = (clinicId: number) => ({
  firstname: 'Bench',
  lastname: 'Patient',
  dob: '2001-03-05',
  clinicId: String(clinicId),
  arches: 'Both',
  nature: 'Local',
  alignerShipment: 'Batches',
  complaint: 'Benchmark',
  impressionType: 'Digital Impression',
  midline: 'Improve',
  overjet: 'Improve',
  overbite: 'Improve',
  crossBite: 'Correct',
  termsAndCondition: 'true',
});

/** The administrator startPortalWithDoctor's portal is started with. */
export const benchAdmin = { username: 'admin', password: 'bench-admin-pass' };

/**
 * A portal process on a fresh data folder (on `DATABASE_URL` when set), its administrator
 * signed in and one active doctor; `stop()` ends the process and removes the folder
 * (`dataDir`, where local storage keeps its files under `files/`). `env` adds to its environment.
 */
export async function startPortalWithDoctor(name: string, env: Record<string, string> = {}) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `portal-bench-${name}-`));
  const portal = await startPortal(
    {
      DATA_DIR: dataDir,
      ADMIN_USERNAME: benchAdmin.username,
      ADMIN_PASSWORD: benchAdmin.password,
      DATABASE_URL: process.env.DATABASE_URL ?? '',
      ...env,
    },
    { quiet: true },
  );
  const stop = async () => {
    await portal.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const { token: adminToken } = await login(portal.baseUrl, benchAdmin.username, benchAdmin.password);
    const doctor = await activeDoctor(portal.baseUrl, adminToken, `bench${name}${Date.now().toString(36)}`);
    return { portal, adminToken, doctor, dataDir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
