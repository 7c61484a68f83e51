import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import type { ApiCallOptions, PortalProcess } from '../../../../e2e/helpers/portal-process.ts';
import { doctorFields, formData } from './factories.ts';
import { unpackPgliteTemplate } from './pglite-template.ts';
import { testAdmin } from './test-app.ts';

/**
 * A seeded database for a real portal process: a copy of the test run's template, so no
 * start seeds 148k cities. With DATABASE_URL, a new PostgreSQL database named after
 * `prefix` (its URL, dropped by `drop`); else the template's PGlite dump unpacked into
 * `dataDir/pglite` (url '').
 */
export async function seededDatabase(dataDir: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const name = `${prefix}_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create database ${name} template ${inject('templateDatabase')}`);
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      async drop() {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  // The template is a PGlite data-directory dump (a tar of PGDATA): unpacked, it is one.
  await unpackPgliteTemplate(inject('templateDump'), dataDir);
  return { url: '', drop: async () => {} };
}

/** The environment of a portal process on `dataDir` and a seeded database: the test admin, a new JWT secret. */
export function portalEnv(dataDir: string, databaseUrl: string): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    ADMIN_USERNAME: testAdmin.username,
    ADMIN_PASSWORD: testAdmin.password,
    JWT_SECRET: randomBytes(32).toString('hex'),
  };
}

/** JSON calls to a running portal process: the answer's body, or an error naming the call. */
export function portalJson(portal: () => PortalProcess) {
  const callJson = async <T>(method: string, url: string, options: ApiCallOptions = {}): Promise<T> => {
    const response = await portal().api(method, url, options);
    const body = await response.text();
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${body}`);
    return JSON.parse(body) as T;
  };
  const login = async (username: string, password: string) =>
    (await callJson<{ token: string }>('POST', '/auth/login', { json: { username, password } })).token;

  /** An active doctor with one clinic, made by the administrator: their token and clinic. */
  async function createDoctor(adminToken: string, clinicName = 'Smile Clinic') {
    const [city] = await callJson<{ CityId: number }[]>('GET', '/city/get_cities_list/1');
    const clinicList = [{ clinicId: 0, clinicName, countryId: 1, cityId: city!.CityId, contactNo: '1', address: 'x' }];
    const fields = doctorFields({ clinicList: JSON.stringify(clinicList), isActive: 'true' });
    await callJson('POST', '/doctor/add', { token: adminToken, form: formData(fields) });
    const token = await login(String(fields.username), String(fields.password));
    const search = encodeURIComponent(String(fields.username));
    const doctors = await callJson<{ UserId: number; UserName: string }[]>(
      'GET',
      `/doctor/get_doctors_list?search=${search}`,
      { token: adminToken },
    );
    const userId = doctors.find((row) => row.UserName === fields.username)!.UserId;
    const [clinic] = await callJson<{ ClinicId: number }[]>('GET', `/clinic/get_clinics_list_by_user_id/${userId}`, {
      token,
    });
    return { token, clinicId: clinic!.ClinicId };
  }

  return { callJson, login, createDoctor };
}
