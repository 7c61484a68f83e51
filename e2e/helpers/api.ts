import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { inject } from 'vitest';
import { e2eAdmin } from './global-setup.ts';
import { baseUrl } from './browser.ts';

export { e2eAdmin };

let counter = 0;
export const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`;

/** Seeds through the real API (browser tests act as a person only where the test is about it). */
export async function apiCall<T>(
  method: string,
  url: string,
  options: { token?: string; json?: unknown; form?: FormData } = {},
): Promise<T> {
  const response = await fetch(`${baseUrl()}/api${url}`, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: options.form ?? (options.json !== undefined ? JSON.stringify(options.json) : undefined),
  });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(body)}`);
  return body as T;
}

export async function apiLogin(username: string, password: string): Promise<string> {
  return (await apiCall<{ token: string }>('POST', '/auth/login', { json: { username, password } })).token;
}

export const adminToken = () => apiLogin(e2eAdmin.username, e2eAdmin.password);

/** A Web user whose role has exactly the given page ids; returns their credentials. */
export async function createStaff(
  pageIds: number[],
): Promise<{ username: string; password: string; roleId: number; roleName: string }> {
  const token = await adminToken();
  const roleName = uniqueName('Role');
  const { RoleId } = await apiCall<{ RoleId: number }>('POST', '/role/add', {
    token,
    json: { roleName, description: 'e2e' },
  });
  for (const pageId of pageIds) await apiCall('POST', `/permission/add/${RoleId}/${pageId}`, { token });
  const username = uniqueName('staff');
  const form = new FormData();
  for (const [key, value] of Object.entries({
    username,
    firstname: 'Sam',
    lastname: 'Staff',
    password: 'staff-pass',
    email: `${username}@lab.test`,
    mobileNo: '5550101',
    roleId: String(RoleId),
    userType: 'Web',
  })) {
    form.append(key, value);
  }
  await apiCall('POST', '/user/add', { token, form });
  return { username, password: 'staff-pass', roleId: RoleId, roleName };
}

/** An active doctor with one clinic (in the first city of country 1). */
export async function createActiveDoctor(): Promise<{
  username: string;
  password: string;
  userId: number;
  doctorId: number;
}> {
  const token = await adminToken();
  const [city] = await apiCall<{ CityId: number }[]>('GET', '/city/get_cities_list/1');
  const username = uniqueName('dr');
  const form = new FormData();
  const fields = {
    username,
    firstname: 'Ada',
    lastname: 'Lovelace',
    password: 'doctor-pass',
    email: `${username}@clinic.test`,
    mobileNo: '5550100',
    roleId: '19',
    countryId: '1',
    gender: 'Female',
    clinicList: JSON.stringify([
      {
        clinicId: 0,
        clinicName: 'Smile Clinic',
        countryId: 1,
        cityId: city!.CityId,
        contactNo: '123',
        address: '1 Main St',
      },
    ]),
    isActive: 'true',
    userType: 'Doctor',
  };
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  const { DoctorId } = await apiCall<{ DoctorId: number }>('POST', '/doctor/add', { token, form });
  const doctors = await apiCall<{ DoctorId: number; UserId: number }[]>('GET', '/doctor/get_doctors_list', { token });
  const userId = doctors.find((doctor) => doctor.DoctorId === DoctorId)!.UserId;
  return { username, password: 'doctor-pass', userId, doctorId: DoctorId };
}

/** The newest .eml in the portal's outbox (DATA_DIR/outbox), decoded. */
export async function latestMail(): Promise<string> {
  const folder = path.join(inject('dataDir'), 'outbox');
  const files = (await readdir(folder).catch(() => [] as string[])).sort();
  if (files.length === 0) throw new Error('no mail in the outbox');
  const raw = await readFile(path.join(folder, files.at(-1)!), 'utf8');
  // quoted-printable soft breaks and escapes
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
