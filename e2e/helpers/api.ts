import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ApiError, createApiClient, endpoints, type Endpoint } from '@portal/contract';
import { expect } from 'vitest';
import { e2eAdmin } from './global-setup.ts';
import { baseUrl, portal } from './browser.ts';

export { e2eAdmin };

let counter = 0;
export const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`;

/** The portal's API for seeding (browser tests act as a person only where the test is about it). */
export const portalApi = () => createApiClient({ baseUrl: baseUrl() });

/** Rows with fewer parameters first: a fixed segment wins over a parameter, as on the server ('/case/drafts'). */
const endpointsByFixedness = (Object.values(endpoints) as Endpoint[]).toSorted(
  (a, b) => (a.path.match(/:/g)?.length ?? 0) - (b.path.match(/:/g)?.length ?? 0),
);

/** The endpoint row of a method and a concrete path ('/role/edit/3'), and the path's parameters. */
function findEndpoint(method: string, apiPath: string): { endpoint: Endpoint; params: Record<string, string> } {
  for (const endpoint of endpointsByFixedness) {
    if (endpoint.method !== method) continue;
    const names: string[] = [];
    const pattern = endpoint.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    const match = new RegExp(`^${pattern}$`).exec(`/api${apiPath}`);
    if (match) {
      const params = Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1]!)]));
      return { endpoint, params };
    }
  }
  throw new Error(`No endpoint answers ${method} /api${apiPath}`);
}

/**
 * A call by method and path, for a test's one-off read or write: it goes through the row of
 * the endpoint table that matches, so its answer is still checked against the row's schema.
 */
export async function apiCall<T>(
  method: string,
  url: string,
  options: { token?: string; json?: unknown; form?: FormData } = {},
): Promise<T> {
  const [apiPath, search] = url.split('?');
  const { endpoint, params } = findEndpoint(method, apiPath!);
  const input = {
    params,
    query: Object.fromEntries(new URLSearchParams(search)),
    body: options.form ?? options.json,
  };
  try {
    return (await portalApi().call(endpoint, input as never, { token: options.token })) as T;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    throw new Error(`${method} ${url}: ${error.status} ${error.message} ${JSON.stringify(error.fieldErrors)}`, {
      cause: error,
    });
  }
}

export async function apiLogin(username: string, password: string): Promise<string> {
  const answer = await portalApi().call(endpoints.login, { body: { username, password } });
  if ('secondFactor' in answer) throw new Error(`${username} needs a second factor to sign in`);
  return answer.token;
}

export const adminToken = () => apiLogin(e2eAdmin.username, e2eAdmin.password);

const toForm = (fields: Record<string, string>) => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return form;
};

/** A Web user whose role has exactly the given page ids; returns their credentials. */
export async function createStaff(
  pageIds: number[],
  /** Another portal than the suite's (one the test started), with its administrator's token. */
  on?: { api: ReturnType<typeof portalApi>; adminToken: string },
): Promise<{ username: string; password: string; roleId: number; roleName: string }> {
  const api = on?.api ?? portalApi();
  const token = on?.adminToken ?? (await adminToken());
  const roleName = uniqueName('Role');
  const { RoleId } = await api.call(endpoints.roleCreate, { body: { roleName, description: 'e2e' } }, { token });
  for (const pageId of pageIds) {
    await api.call(endpoints.permissionGrant, { params: { roleId: RoleId, pageId } }, { token });
  }
  const username = uniqueName('staff');
  const form = toForm({
    username,
    firstname: 'Sam',
    lastname: 'Staff',
    password: 'staff-passphrase',
    email: `${username}@lab.test`,
    mobileNo: '5550101',
    roleId: String(RoleId),
    userType: 'Web',
  });
  await api.call(endpoints.userCreate, { body: form }, { token });
  return { username, password: 'staff-passphrase', roleId: RoleId, roleName };
}

/** An active doctor with one clinic (in the first city of country 1). */
export const createActiveDoctor = (options: { lastname?: string; mobileNo?: string } = {}) =>
  createDoctor({ ...options, isActive: true });

/** A doctor added by the administrator but left inactive, as if waiting for activation. */
export const createInactiveDoctor = (options: { lastname?: string; mobileNo?: string } = {}) =>
  createDoctor({ ...options, isActive: false });

async function createDoctor({
  lastname = 'Lovelace',
  mobileNo = '5550100',
  isActive,
}: {
  lastname?: string;
  mobileNo?: string;
  isActive: boolean;
}): Promise<{
  username: string;
  password: string;
  userId: number;
  doctorId: number;
}> {
  const api = portalApi();
  const token = await adminToken();
  const [city] = await api.call(endpoints.cityList, { params: { id: 1 } });
  const username = uniqueName('dr');
  const form = toForm({
    username,
    firstname: 'Ada',
    lastname,
    password: 'doctor-passphrase',
    email: `${username}@clinic.test`,
    mobileNo,
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
    isActive: String(isActive),
    userType: 'Doctor',
  });
  await api.call(endpoints.doctorCreate, { body: form }, { token });
  // The list is paged: the new doctor is found by a search for its username.
  const doctors = await api.call(endpoints.doctorList, { query: { search: username, pageSize: 30 } }, { token });
  const { UserId, DoctorId } = doctors.find((doctor) => doctor.UserName === username)!;
  return { username, password: 'doctor-passphrase', userId: UserId, doctorId: DoctorId };
}

/** Every .eml in the portal's outbox addressed to `address`, decoded (other tests mail too). */
export async function mailsTo(address: string): Promise<string[]> {
  const folder = path.join(portal().dataDir, 'outbox');
  const files = (await readdir(folder).catch(() => [] as string[])).sort();
  const raws = await Promise.all(files.map((file) => readFile(path.join(folder, file), 'utf8')));
  return raws
    .map((raw) =>
      raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    )
    .filter((mail) => mail.includes(`To: ${address}`));
}

/**
 * The password link mailed to `address` (`<PUBLIC_URL>/reset-password?token=...`, absolute,
 * as a mail client opens it), waited for: an invitation, an activation or a reset sends one,
 * through the outbox.
 */
export async function passwordLinkMailedTo(address: string): Promise<string> {
  let link = '';
  await expect
    .poll(
      async () =>
        (link =
          /https?:\/\/[^\s"<]+\/reset-password\?token=[\w-]+/.exec((await mailsTo(address)).join('\n'))?.[0] ?? ''),
    )
    .not.toBe('');
  return link;
}
