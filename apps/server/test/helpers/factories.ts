import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { resetTokensIn } from './mail.ts';
import type { TestApp } from './test-app.ts';

let counter = 0;
export const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`;

/**
 * Every row of a paged list (the doctor and user lists answer at most 30 a page), read page by
 * page until X-Total-Count rows are in: for tests that look a row up or check one is absent.
 */
export async function allRows<Row>(t: TestApp, token: string, url: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 1; ; page++) {
    const response = await t.as(token, { method: 'GET', url, query: { page: String(page), pageSize: '30' } });
    if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
    const answered = response.json<Row[]>();
    rows.push(...answered);
    if (answered.length === 0 || rows.length >= Number(response.headers['x-total-count'])) return rows;
  }
}

/** A real PNG or JPEG made by sharp. */
export async function makeImage(format: 'png' | 'jpeg' = 'png', size = 120): Promise<Buffer> {
  const image = sharp({ create: { width: size, height: size, channels: 3, background: { r: 20, g: 120, b: 200 } } });
  return format === 'png' ? image.png().toBuffer() : image.jpeg().toBuffer();
}

export function formData(
  fields: Record<string, string | number | boolean>,
  files: Record<string, { data: Buffer; name: string; type: string }> = {},
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  for (const [name, file] of Object.entries(files))
    form.append(name, new Blob([file.data], { type: file.type }), file.name);
  return form;
}

/** A valid doctor registration; the city is a real city of the country. */
export function doctorFields(overrides: Record<string, string | number | boolean> = {}) {
  const username = uniqueName('dr');
  return {
    username,
    firstname: 'Ada',
    lastname: 'Lovelace',
    password: 'secret-passphrase',
    email: `${username}@clinic.test`,
    mobileNo: '+1 555 0100',
    roleId: 19,
    countryId: 1,
    gender: 'Female',
    profession: 'Orthodontist',
    professionSpecialization: 'Aligners',
    academicTitle: 'DDS',
    description: 'Registered in tests',
    clinicList: JSON.stringify([
      { clinicId: 0, clinicName: 'Smile Clinic', countryId: 1, cityId: 1, contactNo: '123456', address: '1 Main St' },
    ]),
    isActive: false,
    userType: 'Doctor',
    ...overrides,
  };
}

/** Countries 1 (Afghanistan) and its first city, as seeded. */
export async function firstCityOf(t: TestApp, countryId = 1): Promise<number> {
  const response = await t.app.inject({ method: 'GET', url: `/api/city/get_cities_list/${countryId}` });
  return response.json<{ CityId: number }[]>()[0]!.CityId;
}

export interface CreatedDoctor {
  doctorId: number;
  userId: number;
  username: string;
  password: string;
  email: string;
  token?: string;
}

/** Registers a doctor; with `active`, the administrator activates them and they sign in. */
export async function createDoctor(
  t: TestApp,
  options: { active?: boolean; fields?: Record<string, string | number | boolean> } = {},
): Promise<CreatedDoctor> {
  const cityId = await firstCityOf(t);
  const fields = doctorFields({
    clinicList: JSON.stringify([
      { clinicId: 0, clinicName: 'Smile Clinic', countryId: 1, cityId, contactNo: '123456', address: '1 Main St' },
    ]),
    ...options.fields,
  });
  const admin = await t.adminToken();
  const response = await t.as(options.active ? admin : null, {
    method: 'POST',
    url: '/api/doctor/add',
    payload: formData({ ...fields, isActive: options.active ? 'true' : 'false' }),
  });
  if (response.statusCode !== 200) throw new Error(`doctor add failed: ${response.body}`);
  // A registration answers no DoctorId (it answers alike for a taken username): found by name.
  const username = String(fields.username).normalize('NFKC');
  const list = await t.as(admin, { method: 'GET', url: '/api/doctor/get_doctors_list', query: { search: username } });
  const row = list
    .json<{ DoctorId: number; UserId: number; UserName: string }[]>()
    .find((doctor) => doctor.UserName === username)!;
  const created: CreatedDoctor = {
    doctorId: row.DoctorId,
    userId: row.UserId,
    username: String(fields.username).normalize('NFKC'),
    password: String(fields.password),
    email: String(fields.email),
  };
  if (options.active) created.token = await t.login(created.username, created.password);
  return created;
}

export interface ClinicRow {
  ClinicId: number;
  CountryId: number;
  CityId: number;
  ClinicName: string;
  ContactNo: string;
  Address: string;
}

/** Clinic rows as read, turned back into the clinicList entries a form sends. */
export const clinicEntries = (rows: ClinicRow[]) =>
  rows.map((row) => ({
    clinicId: row.ClinicId,
    clinicName: row.ClinicName,
    countryId: row.CountryId,
    cityId: row.CityId,
    contactNo: row.ContactNo,
    address: row.Address,
  }));

/** The Doctors screen / profile form for an existing doctor: active, password unchanged, clinics kept. */
export async function doctorEditFields(
  t: TestApp,
  doctor: CreatedDoctor,
  overrides: Record<string, string | number | boolean> = {},
) {
  const currentClinics = async () => {
    const response = await t.as(await t.adminToken(), {
      method: 'GET',
      url: `/api/clinic/get_clinics_list/${doctor.doctorId}`,
    });
    if (response.statusCode !== 200)
      throw new Error(`clinics of doctor ${doctor.doctorId}: ${response.statusCode} ${response.body}`);
    return JSON.stringify(clinicEntries(response.json<ClinicRow[]>()));
  };
  const { userType: _userType, ...fields } = doctorFields({
    username: doctor.username,
    email: doctor.email,
    password: '',
    isActive: 'true',
    clinicList: overrides.clinicList ?? (await currentClinics()),
    ...overrides,
  });
  return fields;
}

/** The password createStaff gives every Web user it makes. */
export const staffPassword = 'staff-passphrase';

/** A Web user whose role has exactly `pages` (page ids), signed in. */
export async function createStaff(
  t: TestApp,
  pageIds: number[],
): Promise<{ userId: number; roleId: number; token: string; username: string }> {
  const admin = await t.adminToken();
  const role = await t.as(admin, {
    method: 'POST',
    url: '/api/role/add',
    payload: { roleName: uniqueName('role'), description: 'test' },
  });
  const { RoleId } = role.json<{ RoleId: number }>();
  for (const pageId of pageIds) {
    await t.as(admin, { method: 'POST', url: `/api/permission/add/${RoleId}/${pageId}` });
  }
  const username = uniqueName('staff');
  const user = await t.as(admin, {
    method: 'POST',
    url: '/api/user/add',
    payload: formData({
      username,
      firstname: 'Sam',
      lastname: 'Staff',
      password: staffPassword,
      email: `${username}@lab.test`,
      mobileNo: '5550101',
      roleId: RoleId,
      userType: 'Web',
    }),
  });
  if (user.statusCode !== 200) throw new Error(`user add failed: ${user.body}`);
  return {
    userId: user.json<{ UserId: number }>().UserId,
    roleId: RoleId,
    token: await t.login(username, staffPassword),
    username,
  };
}

/** The .eml files the mailer wrote into DATA_DIR/outbox. */
export async function outboxMessages(t: TestApp): Promise<string[]> {
  const folder = path.join(t.dataDir, 'outbox');
  const files = await readdir(folder).catch(() => [] as string[]);
  return Promise.all(files.sort().map((file) => readFile(path.join(folder, file), 'utf8')));
}

/** The reset token in the newest mail the outbox sent to `email` (once it has run). */
export async function latestResetTokenTo(t: TestApp, email: string): Promise<string> {
  await t.app.outbox.deliverDue();
  const mails = (await outboxMessages(t)).filter((raw) => raw.includes(`To: ${email}`));
  const token = resetTokensIn(mails.at(-1) ?? '').at(-1);
  if (!token) throw new Error(`no reset link reached ${email}`);
  return token;
}

/**
 * Asks for a reset link from the Doctors page as the administrator and reads it where it
 * goes, the doctor's own mail (the answer never holds it); returns its token.
 */
export async function mailedResetToken(t: TestApp, doctor: { doctorId: number; email: string }): Promise<string> {
  const response = await t.as(await t.adminToken(), {
    method: 'POST',
    url: `/api/doctor/request_password_reset/${doctor.doctorId}`,
  });
  if (response.statusCode !== 200) throw new Error(`reset request failed: ${response.body}`);
  return latestResetTokenTo(t, doctor.email);
}

export interface CreatedAssistant {
  userId: number;
  email: string;
  password: string;
  token: string;
}

/**
 * An assistant the doctor invites, who sets a password through the mailed link and signs in
 * with their e-mail (docs/decisions/assistants.md § Assistants).
 */
export async function createAssistant(t: TestApp, doctorToken: string): Promise<CreatedAssistant> {
  const email = `${uniqueName('assistant')}@example.com`;
  const invited = await t.as(doctorToken, {
    method: 'POST',
    url: '/api/doctor/assistants',
    payload: { email, firstName: 'Asta', lastName: uniqueName('Helper') },
  });
  if (invited.statusCode !== 200) throw new Error(`assistant invite failed: ${invited.body}`);
  const token = await latestResetTokenTo(t, email);
  const password = 'assistant-passphrase';
  const reset = await t.app.inject({
    method: 'POST',
    url: '/api/doctor/reset_password',
    payload: { token, newPassword: password },
  });
  if (reset.statusCode !== 200) throw new Error(`assistant password failed: ${reset.body}`);
  const list = await t.as(doctorToken, { method: 'GET', url: '/api/doctor/assistants' });
  const row = list.json<{ userId: number; email: string }[]>().find((assistant) => assistant.email === email)!;
  return { userId: row.userId, email, password, token: await t.login(email, password) };
}
