import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { clinicListMessage, messages, registrationSucceeded } from '@portal/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinics, doctors, users } from '../src/db/schema.ts';
import {
  allRows,
  clinicEntries,
  type ClinicRow,
  type CreatedDoctor,
  createDoctor,
  createStaff,
  doctorEditFields,
  doctorFields,
  firstCityOf,
  formData,
  makeImage,
  outboxMessages,
  uniqueName,
} from './helpers/factories.ts';
import { readableMail } from './helpers/mail.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

type Fields = Record<string, string | number | boolean>;

let t: TestApp;
let admin: string;
let cityOfCountry1: number;
/** Albania: a second country that has cities (country 2, the Aland Islands, has none). */
let country2: number;
let cityOfCountry2: number;
/** Web users whose role has only the Doctors page, only Add Case, only the Dashboard. */
let doctorsStaff: string;
let casesStaff: string;
let dashboardStaff: string;
/** A role a staff member may give a doctor, other than 19. */
let otherRoleId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  cityOfCountry1 = await firstCityOf(t, 1);
  const countries = (await t.app.inject({ method: 'GET', url: '/api/country/get_countries_list' })).json<
    { CountryId: number; CountryName: string }[]
  >();
  country2 = countries.find((country) => country.CountryName === 'Albania')!.CountryId;
  cityOfCountry2 = await firstCityOf(t, country2);
  doctorsStaff = (await createStaff(t, [5])).token;
  casesStaff = (await createStaff(t, [6])).token;
  const dashboard = await createStaff(t, [1]);
  dashboardStaff = dashboard.token;
  otherRoleId = dashboard.roleId;
});
afterAll(() => t.close());

const clinicJson = (...entries: Partial<Record<string, string | number>>[]) =>
  JSON.stringify(
    entries.map((entry) => ({
      clinicId: 0,
      clinicName: 'Smile Clinic',
      countryId: 1,
      cityId: cityOfCountry1,
      contactNo: '123456',
      address: '1 Main St',
      ...entry,
    })),
  );

const register = (fields: Fields, token: string | null = null, files = {}) =>
  t.as(token, { method: 'POST', url: '/api/doctor/add', payload: formData(fields, files) });

const registrationFields = (overrides: Fields = {}) => doctorFields({ clinicList: clinicJson({}), ...overrides });

const detail = (token: string | null, userId: number | string) =>
  t.as(token, { method: 'GET', url: `/api/doctor/get_doctor_detail_by_user_Id/${userId}` });

async function doctorRow(userId: number) {
  const response = await detail(admin, userId);
  expect(response.statusCode).toBe(200);
  return response.json<Record<string, unknown>[]>()[0]!;
}

async function clinicsOf(doctorId: number): Promise<ClinicRow[]> {
  const response = await t.as(admin, { method: 'GET', url: `/api/clinic/get_clinics_list/${doctorId}` });
  expect(response.statusCode).toBe(200);
  return response.json<ClinicRow[]>();
}

const editFields = (doctor: CreatedDoctor, overrides: Fields = {}) => doctorEditFields(t, doctor, overrides);

const edit = (token: string | null, doctorId: number, fields: Fields) =>
  t.as(token, { method: 'PUT', url: `/api/doctor/edit/${doctorId}`, payload: formData(fields) });

const login = (username: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });

/** Any call a doctor may make: their own detail. */
const ownDetailStatus = async (doctor: CreatedDoctor) => (await detail(doctor.token!, doctor.userId)).statusCode;

async function rowCounts() {
  const count = async (table: typeof users | typeof doctors | typeof clinics) =>
    (await t.app.db.select({ n: sql<number>`count(*)::int` }).from(table))[0]!.n;
  return { users: await count(users), doctors: await count(doctors), clinics: await count(clinics) };
}

const storedFiles = () => readdir(path.join(t.dataDir, 'files'), { recursive: true }).catch(() => [] as string[]);

describe('POST /doctor/add', () => {
  it('registers a doctor anonymously: inactive, role 19, every field stored, cannot sign in yet', async () => {
    const fields = registrationFields();
    const response = await register(fields);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: registrationSucceeded });
    const listed = await allRows<{ DoctorId: number; UserId: number; UserName: string }>(
      t,
      admin,
      '/api/doctor/get_doctors_list',
    );
    const row = listed.find((doctor) => doctor.UserName === fields.username)!;
    expect(row).toMatchObject({
      UserName: fields.username,
      FirstName: 'Ada',
      LastName: 'Lovelace',
      Email: fields.email,
      MobileNo: '+1 555 0100',
      RoleId: 19,
      IsActive: false,
      CountryId: 1,
      Gender: 'Female',
      Profession: 'Orthodontist',
      ProfessionalSpecialization: 'Aligners',
      AcademicTitle: 'DDS',
      Message: 'Registered in tests',
      ProfilePic: null,
      userType: 'Doctor',
    });
    expect(await clinicsOf(row.DoctorId)).toEqual([
      {
        ClinicId: expect.any(Number),
        ClinicName: 'Smile Clinic',
        CountryId: 1,
        CityId: cityOfCountry1,
        ContactNo: '123456',
        Address: '1 Main St',
      },
    ]);
    const signIn = await login(String(fields.username), String(fields.password));
    expect(signIn.statusCode).toBe(403);
    expect(signIn.json().message).toBe(messages.accountInactive);
  });

  it('ignores roleId and isActive from anyone not allowed on the Doctors page (mass assignment)', async () => {
    const activeDoctor = await createDoctor(t, { active: true });
    for (const token of [null, activeDoctor.token!, dashboardStaff, casesStaff]) {
      for (const [roleId, isActive] of [
        [otherRoleId, 'true'],
        [-1, '1'],
      ] as const) {
        const fields = registrationFields({ roleId, isActive });
        const response = await register(fields, token);
        expect(response.statusCode).toBe(200);
        expect(response.json().message).toBe(registrationSucceeded);
        const [stored] = await t.app.db
          .select({ roleId: users.roleId, isActive: users.isActive })
          .from(users)
          .where(eq(users.userName, String(fields.username)));
        expect(stored).toEqual({ roleId: 19, isActive: false });
        expect((await login(String(fields.username), String(fields.password))).statusCode).toBe(403);
      }
    }
  });

  it('lets staff with the Doctors page set the role and status', async () => {
    for (const token of [admin, doctorsStaff]) {
      const fields = registrationFields({ roleId: otherRoleId, isActive: 'true' });
      const response = await register(fields, token);
      expect(response.statusCode).toBe(200);
      expect(response.json().message).toBe('Doctor added successfully');
      const [stored] = await t.app.db
        .select({ roleId: users.roleId, isActive: users.isActive })
        .from(users)
        .where(eq(users.userName, String(fields.username)));
      expect(stored).toEqual({ roleId: otherRoleId, isActive: true });
      expect((await login(String(fields.username), String(fields.password))).statusCode).toBe(200);
    }
  });

  it('refuses the administrator role or an unknown role even from staff', async () => {
    for (const roleId of [-1, 999_999]) {
      const response = await register(registrationFields({ roleId }), doctorsStaff);
      expect(response.statusCode).toBe(400);
      expect(response.json().fieldErrors).toEqual({ roleId: 'Role is not valid' });
    }
  });

  it('answers 400 with the spec messages per field', async () => {
    const response = await register(
      registrationFields({
        username: 'ab',
        email: 'not-an-email',
        password: '12345',
        countryId: '',
        gender: '',
        clinicList: '',
      }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({
      username: 'Username must be at least 3 characters',
      email: 'Email is not valid',
      password: 'Password must be at least 12 characters',
      countryId: 'Location is required',
      gender: 'Gender is required',
      clinicList: clinicListMessage,
    });
  });

  it('requires at least one clinic, each with a name and a city', async () => {
    const { clinicList: _clinicList, ...withoutClinics } = registrationFields();
    for (const fields of [withoutClinics, registrationFields({ clinicList: '[]' })]) {
      const response = await register(fields);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        message: clinicListMessage,
        fieldErrors: { clinicList: clinicListMessage },
      });
    }
    const response = await register(
      registrationFields({ clinicList: clinicJson({}, { clinicName: '  ', cityId: '' }) }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({
      'clinicList.1.clinicName': 'Clinic Name is required!',
      'clinicList.1.cityId': 'City is required!',
    });
  });

  it('refuses a gender other than Male, Female or Other', async () => {
    const response = await register(registrationFields({ gender: 'Robot' }));
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({ gender: 'Gender is required' });
  });

  it('refuses a city that is not in the clinic country, and an unknown country', async () => {
    const wrongCity = await register(
      registrationFields({ clinicList: clinicJson({}, { countryId: 1, cityId: cityOfCountry2 }) }),
    );
    expect(wrongCity.statusCode).toBe(400);
    expect(wrongCity.json().fieldErrors).toEqual({ 'clinicList.1.cityId': 'City is not valid' });
    const unknownCity = await register(registrationFields({ clinicList: clinicJson({ cityId: 99_999_999 }) }));
    expect(unknownCity.statusCode).toBe(400);
    expect(unknownCity.json().fieldErrors).toEqual({ 'clinicList.0.cityId': 'City is not valid' });
    const unknownCountry = await register(registrationFields({ countryId: 99_999 }));
    expect(unknownCountry.statusCode).toBe(400);
    expect(unknownCountry.json().fieldErrors).toEqual({ countryId: 'Location is not valid' });
  });

  // Issue 20: a 409 here told anyone which usernames exist; the outcome goes by e-mail instead.
  it('answers a taken username (any case, or its fullwidth form) exactly as a new registration, makes no account, and tells both addresses by e-mail', async () => {
    const first = registrationFields();
    const fresh = await register(first);
    expect(fresh.statusCode).toBe(200);
    const before = await rowCounts();
    const fullwidth = [...String(first.username)]
      .map((letter) => String.fromCharCode(letter.charCodeAt(0) + 0xfee0))
      .join('');
    for (const username of [String(first.username).toUpperCase(), fullwidth]) {
      const fields = registrationFields({ username, email: `${uniqueName('other')}@clinic.test` });
      const again = await register(fields);
      expect(again.statusCode).toBe(fresh.statusCode);
      expect(again.body).toBe(fresh.body);
      expect(again.headers['content-type']).toBe(fresh.headers['content-type']);
      expect(await rowCounts()).toEqual(before);
      await t.app.outbox.deliverDue();
      const [toGiven] = (await outboxMessages(t)).filter((raw) => raw.includes(`To: ${String(fields.email)}`));
      expect(readableMail(toGiven!)).toContain('Subject: Your Aligner Portal registration was not completed');
      expect(readableMail(toGiven!)).not.toContain(String(first.email));
    }
    const toOwner = (await outboxMessages(t)).filter((raw) => raw.includes(`To: ${String(first.email)}`));
    expect(toOwner.map((raw) => /^Subject: (.*)$/m.exec(readableMail(raw))![1])).toEqual([
      'Your Aligner Portal registration was received',
      'Someone tried to register your Aligner Portal username',
      'Someone tried to register your Aligner Portal username',
    ]);
    expect((await login(String(first.username), String(first.password))).statusCode).toBe(403);
  });

  it('still refuses a taken username with 409 to staff adding a doctor from the Doctors page', async () => {
    const first = registrationFields();
    expect((await register(first)).statusCode).toBe(200);
    const again = await register(registrationFields({ username: String(first.username).toUpperCase() }), admin);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      message: 'Username is already taken',
      fieldErrors: { username: 'Username is already taken' },
    });
  });

  it('leaves no user, doctor, clinic or picture behind when a registration is refused', async () => {
    const taken = registrationFields();
    expect((await register(taken)).statusCode).toBe(200);
    const before = await rowCounts();
    const filesBefore = await storedFiles();
    const picture = { profilePic: { data: await makeImage('png'), name: 'me.png', type: 'image/png' } };
    const notAnImage = {
      profilePic: { data: Buffer.from('MZ this is not a picture'), name: 'me.png', type: 'image/png' },
    };
    const refused = [
      await register(registrationFields({ gender: '' }), null, picture),
      await register(registrationFields({ clinicList: clinicJson({ cityId: cityOfCountry2 }) }), null, picture),
      await register(registrationFields({ username: taken.username }), null, picture),
      // The picture is checked last, after the rows are written: they must roll back.
      await register(registrationFields(), null, notAnImage),
    ];
    // The taken username answers as a success would (issue 20), and leaves nothing either.
    expect(refused.map((response) => response.statusCode)).toEqual([400, 400, 200, 400]);
    expect(refused[3]!.json().fieldErrors).toEqual({ profilePic: 'Only JPG and PNG files are allowed!' });
    expect(await rowCounts()).toEqual(before);
    expect(await storedFiles()).toEqual(filesBefore);
  });

  it('stores a profile picture sent with the registration', async () => {
    const fields = registrationFields();
    const response = await register(fields, null, {
      profilePic: { data: await makeImage('jpeg'), name: 'me.jpg', type: 'image/jpeg' },
    });
    expect(response.statusCode).toBe(200);
    const [stored] = await t.app.db
      .select({ profilePic: users.profilePic })
      .from(users)
      .where(eq(users.userName, String(fields.username)));
    expect(stored!.profilePic).toMatch(/^users\/\d+\/[a-f0-9]{16}\.jpg$/);
  });

  it('wants multipart/form-data', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/doctor/add', payload: registrationFields() });
    expect(response.statusCode).toBe(415);
  });
});

describe('GET /doctor/get_doctors_list', () => {
  it('lists doctors, active and not, for staff with the Doctors or Add Case page', async () => {
    const inactive = await createDoctor(t);
    const active = await createDoctor(t, { active: true });
    for (const token of [admin, doctorsStaff, casesStaff]) {
      const rows = await allRows<{ DoctorId: number; IsActive: boolean; UserName: string }>(
        t,
        token,
        '/api/doctor/get_doctors_list',
      );
      expect(rows.find((row) => row.DoctorId === inactive.doctorId)).toMatchObject({
        IsActive: false,
        UserName: inactive.username,
      });
      expect(rows.find((row) => row.DoctorId === active.doctorId)).toMatchObject({
        IsActive: true,
        UserName: active.username,
      });
      expect(Object.keys(rows[0]!)).not.toContain('passwordHash');
    }
  });

  it('refuses a Web user without the page (403), a doctor (403) and anonymous callers (401)', async () => {
    const doctor = await createDoctor(t, { active: true });
    expect((await t.as(dashboardStaff, { method: 'GET', url: '/api/doctor/get_doctors_list' })).statusCode).toBe(403);
    expect((await t.as(doctor.token!, { method: 'GET', url: '/api/doctor/get_doctors_list' })).statusCode).toBe(403);
    expect((await t.as(null, { method: 'GET', url: '/api/doctor/get_doctors_list' })).statusCode).toBe(401);
  });
});

describe('GET /doctor/get_doctor_detail_by_user_Id/{userId}', () => {
  const specFields = [
    'UserId',
    'DoctorId',
    'UserName',
    'RoleId',
    'FirstName',
    'LastName',
    'Email',
    'MobileNo',
    'ProfilePic',
    'Profession',
    'ProfessionalSpecialization',
    'AcademicTitle',
    'Message',
    'IsActive',
    'CountryId',
    'Gender',
  ];

  it('answers an array whose first element has the spec fields', async () => {
    const doctor = await createDoctor(t, { active: true });
    for (const token of [admin, doctorsStaff, doctor.token!]) {
      const response = await detail(token, doctor.userId);
      expect(response.statusCode).toBe(200);
      const rows = response.json<Record<string, unknown>[]>();
      expect(rows).toHaveLength(1);
      expect(Object.keys(rows[0]!)).toEqual(expect.arrayContaining(specFields));
      expect(rows[0]).toMatchObject({
        UserId: doctor.userId,
        DoctorId: doctor.doctorId,
        UserName: doctor.username,
        Email: doctor.email,
        IsActive: true,
      });
      expect(Object.keys(rows[0]!).some((key) => /password/i.test(key))).toBe(false);
    }
  });

  it("gives a doctor 404 for another doctor's record", async () => {
    const doctorA = await createDoctor(t, { active: true });
    const doctorB = await createDoctor(t, { active: true });
    const response = await detail(doctorA.token!, doctorB.userId);
    expect(response.statusCode).toBe(404);
    expect(JSON.stringify(response.json())).not.toContain(doctorB.username);
  });

  it('answers 404 for an unknown user or a Web user, 400 for a bad id', async () => {
    expect((await detail(admin, 99_999_999)).statusCode).toBe(404);
    expect((await detail(admin, 1)).statusCode).toBe(404);
    const bad = await detail(admin, 'abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual({ id: 'Id must be a number' });
  });

  it('refuses a Web user without the Doctors page (403) and anonymous callers (401)', async () => {
    const doctor = await createDoctor(t);
    expect((await detail(dashboardStaff, doctor.userId)).statusCode).toBe(403);
    expect((await detail(casesStaff, doctor.userId)).statusCode).toBe(403);
    expect((await detail(null, doctor.userId)).statusCode).toBe(401);
  });
});

describe('PUT /doctor/edit/{doctorId}', () => {
  // The e-mail (and password) only the administrator sets (privilege-escalation.test.ts).
  it('lets staff change every field, the username, role and status included', async () => {
    const doctor = await createDoctor(t, { active: true });
    const username = uniqueName('renamed');
    const response = await edit(
      admin,
      doctor.doctorId,
      await editFields(doctor, {
        username,
        firstname: 'Grace',
        lastname: 'Hopper',
        email: `${username}@clinic.test`,
        mobileNo: '555 0199',
        roleId: otherRoleId,
        countryId: country2,
        gender: 'Other',
        profession: 'Dentist',
        professionSpecialization: 'Ortho',
        academicTitle: 'PhD',
        description: 'Changed by staff',
      }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Doctor updated successfully' });
    expect(await doctorRow(doctor.userId)).toMatchObject({
      UserName: username,
      FirstName: 'Grace',
      LastName: 'Hopper',
      Email: `${username}@clinic.test`,
      MobileNo: '555 0199',
      RoleId: otherRoleId,
      CountryId: country2,
      Gender: 'Other',
      Profession: 'Dentist',
      ProfessionalSpecialization: 'Ortho',
      AcademicTitle: 'PhD',
      Message: 'Changed by staff',
      IsActive: true,
    });
    // Nothing that matters to the session changed, so the token still works.
    expect(await ownDetailStatus(doctor)).toBe(200);
    expect((await login(username, doctor.password)).statusCode).toBe(200);
  });

  it('lets a doctor edit their own profile but ignores the username, roleId and isActive they send', async () => {
    const doctor = await createDoctor(t, { active: true });
    const response = await edit(
      doctor.token!,
      doctor.doctorId,
      await editFields(doctor, {
        username: uniqueName('hijack'),
        roleId: otherRoleId,
        isActive: 'false',
        firstname: 'Marie',
        description: 'My own words',
      }),
    );
    expect(response.statusCode).toBe(200);
    expect(await doctorRow(doctor.userId)).toMatchObject({
      UserName: doctor.username,
      RoleId: 19,
      IsActive: true,
      FirstName: 'Marie',
      Message: 'My own words',
    });
    expect(await ownDetailStatus(doctor)).toBe(200);
  });

  it("gives a doctor 404 for another doctor's record and changes nothing", async () => {
    const doctorA = await createDoctor(t, { active: true });
    const doctorB = await createDoctor(t, { active: true });
    const before = await doctorRow(doctorB.userId);
    const clinicsBefore = await clinicsOf(doctorB.doctorId);
    const response = await edit(
      doctorA.token!,
      doctorB.doctorId,
      await editFields(doctorB, { firstname: 'Mallory', clinicList: clinicJson({}) }),
    );
    expect(response.statusCode).toBe(404);
    expect(await doctorRow(doctorB.userId)).toEqual(before);
    expect(await clinicsOf(doctorB.doctorId)).toEqual(clinicsBefore);
  });

  it('refuses a Web user without the Doctors page (403), anonymous callers (401), an unknown doctor (404)', async () => {
    const doctor = await createDoctor(t, { active: true });
    const fields = await editFields(doctor, { firstname: 'Nope' });
    expect((await edit(dashboardStaff, doctor.doctorId, fields)).statusCode).toBe(403);
    expect((await edit(casesStaff, doctor.doctorId, fields)).statusCode).toBe(403);
    expect((await edit(null, doctor.doctorId, fields)).statusCode).toBe(401);
    expect((await edit(admin, 99_999_999, fields)).statusCode).toBe(404);
    expect((await doctorRow(doctor.userId)).FirstName).toBe('Ada');
  });

  it('answers 400 with the spec messages and changes nothing', async () => {
    const doctor = await createDoctor(t, { active: true });
    const before = await doctorRow(doctor.userId);
    const response = await edit(
      admin,
      doctor.doctorId,
      await editFields(doctor, { firstname: 'Changed', countryId: '', gender: '', clinicList: '[]', roleId: '' }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({
      countryId: 'Location is required',
      gender: 'Gender is required',
      clinicList: clinicListMessage,
      roleId: 'Role is required',
    });
    const clinic = await edit(
      admin,
      doctor.doctorId,
      await editFields(doctor, { clinicList: clinicJson({ clinicName: '', cityId: '' }) }),
    );
    expect(clinic.statusCode).toBe(400);
    expect(clinic.json().fieldErrors).toEqual({
      'clinicList.0.clinicName': 'Clinic Name is required!',
      'clinicList.0.cityId': 'City is required!',
    });
    const password = await edit(admin, doctor.doctorId, await editFields(doctor, { password: '123' }));
    expect(password.statusCode).toBe(400);
    expect(password.json().fieldErrors).toEqual({ password: 'Password must be at least 12 characters' });
    expect(await doctorRow(doctor.userId)).toEqual(before);
  });

  it('refuses a username another user has with 409', async () => {
    const doctorA = await createDoctor(t);
    const doctorB = await createDoctor(t);
    const response = await edit(admin, doctorB.doctorId, await editFields(doctorB, { username: doctorA.username }));
    expect(response.statusCode).toBe(409);
    expect(response.json().fieldErrors).toEqual({ username: 'Username is already taken' });
  });

  it('replaces the clinics: clinicId 0 adds, a known id updates, one left out is hidden', async () => {
    const doctor = await createDoctor(t, { active: true });
    const [original] = await clinicsOf(doctor.doctorId);
    const added = await edit(
      doctor.token!,
      doctor.doctorId,
      await editFields(doctor, {
        clinicList: clinicJson(
          { clinicId: original!.ClinicId, clinicName: 'Renamed Clinic', address: '2 High St' },
          { clinicId: 0, clinicName: 'Second Clinic', countryId: country2, cityId: cityOfCountry2 },
        ),
      }),
    );
    expect(added.statusCode).toBe(200);
    const afterAdd = await clinicsOf(doctor.doctorId);
    expect(afterAdd).toEqual([
      { ...original, ClinicName: 'Renamed Clinic', Address: '2 High St' },
      {
        ClinicId: expect.any(Number),
        ClinicName: 'Second Clinic',
        CountryId: country2,
        CityId: cityOfCountry2,
        ContactNo: '123456',
        Address: '1 Main St',
      },
    ]);
    const second = afterAdd[1]!;
    const dropped = await edit(
      admin,
      doctor.doctorId,
      await editFields(doctor, { clinicList: JSON.stringify(clinicEntries([second])) }),
    );
    expect(dropped.statusCode).toBe(200);
    expect(await clinicsOf(doctor.doctorId)).toEqual([second]);
    // Hidden, not removed: cases keep pointing at it.
    const [hidden] = await t.app.db.select().from(clinics).where(eq(clinics.clinicId, original!.ClinicId));
    expect(hidden!.deletedAt).toBeInstanceOf(Date);
    // A hidden clinic cannot be brought back by its id.
    const revived = await edit(
      admin,
      doctor.doctorId,
      await editFields(doctor, { clinicList: clinicJson({ clinicId: original!.ClinicId }) }),
    );
    expect(revived.statusCode).toBe(400);
    expect(revived.json().fieldErrors).toEqual({ 'clinicList.0.clinicId': 'Clinic is not valid' });
  });

  it("refuses a clinicId of another doctor and leaves both doctors' clinics alone", async () => {
    const doctorA = await createDoctor(t, { active: true });
    const doctorB = await createDoctor(t, { active: true });
    const clinicsA = await clinicsOf(doctorA.doctorId);
    const clinicsB = await clinicsOf(doctorB.doctorId);
    for (const token of [doctorA.token!, admin]) {
      const response = await edit(
        token,
        doctorA.doctorId,
        await editFields(doctorA, {
          clinicList: clinicJson({ clinicId: clinicsB[0]!.ClinicId, clinicName: 'Stolen' }),
        }),
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().fieldErrors).toEqual({ 'clinicList.0.clinicId': 'Clinic is not valid' });
    }
    expect(await clinicsOf(doctorA.doctorId)).toEqual(clinicsA);
    expect(await clinicsOf(doctorB.doctorId)).toEqual(clinicsB);
  });

  it("ends the doctor's sessions when staff deactivate them", async () => {
    const doctor = await createDoctor(t, { active: true });
    expect(await ownDetailStatus(doctor)).toBe(200);
    const response = await edit(admin, doctor.doctorId, await editFields(doctor, { isActive: 'false' }));
    expect(response.statusCode).toBe(200);
    expect(await ownDetailStatus(doctor)).toBe(401);
    const signIn = await login(doctor.username, doctor.password);
    expect(signIn.statusCode).toBe(403);
    expect(signIn.json().message).toBe(messages.accountInactive);
  });

  it('keeps the password when it is sent empty; a new one ends the old sessions', async () => {
    const doctor = await createDoctor(t, { active: true });
    expect((await edit(doctor.token!, doctor.doctorId, await editFields(doctor, { password: '' }))).statusCode).toBe(
      200,
    );
    expect(await ownDetailStatus(doctor)).toBe(200);
    expect((await login(doctor.username, doctor.password)).statusCode).toBe(200);

    const changed = await edit(
      doctor.token!,
      doctor.doctorId,
      await editFields(doctor, { password: 'brand-new-pass', currentPassword: doctor.password }),
    );
    expect(changed.statusCode).toBe(200);
    expect(await ownDetailStatus(doctor)).toBe(401);
    expect((await login(doctor.username, doctor.password)).statusCode).toBe(401);
    const fresh = { ...doctor, token: await t.login(doctor.username, 'brand-new-pass') };
    expect(await ownDetailStatus(fresh)).toBe(200);

    // Staff setting the password ends the doctor's sessions as well.
    expect(
      (await edit(admin, doctor.doctorId, await editFields(doctor, { password: 'set-by-staff' }))).statusCode,
    ).toBe(200);
    expect(await ownDetailStatus(fresh)).toBe(401);
    expect((await login(doctor.username, 'set-by-staff')).statusCode).toBe(200);
  });

  it('wants multipart/form-data and a numeric id', async () => {
    const doctor = await createDoctor(t, { active: true });
    const json = await t.as(admin, {
      method: 'PUT',
      url: `/api/doctor/edit/${doctor.doctorId}`,
      payload: await editFields(doctor),
    });
    expect(json.statusCode).toBe(415);
    const badId = await edit(admin, 'abc' as unknown as number, await editFields(doctor));
    expect(badId.statusCode).toBe(400);
  });
});

describe('DELETE /doctor/delete/{doctorId}', () => {
  const remove = (token: string | null, doctorId: number) =>
    t.as(token, { method: 'DELETE', url: `/api/doctor/delete/${doctorId}` });

  it('hides the doctor from lists and ends their sessions; the row stays', async () => {
    const doctor = await createDoctor(t, { active: true });
    const response = await remove(doctorsStaff, doctor.doctorId);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Doctor deleted successfully' });
    const list = await allRows<{ DoctorId: number }>(t, admin, '/api/doctor/get_doctors_list');
    expect(list.some((row) => row.DoctorId === doctor.doctorId)).toBe(false);
    expect((await detail(admin, doctor.userId)).statusCode).toBe(404);
    expect(await ownDetailStatus(doctor)).toBe(401);
    expect((await login(doctor.username, doctor.password)).statusCode).toBe(401);
    const [row] = await t.app.db
      .select({ deletedAt: users.deletedAt })
      .from(users)
      .where(eq(users.userId, doctor.userId));
    expect(row!.deletedAt).toBeInstanceOf(Date);
    expect((await remove(admin, doctor.doctorId)).statusCode).toBe(404);
    expect(
      (await edit(admin, doctor.doctorId, await editFields(doctor, { clinicList: clinicJson({}) }))).statusCode,
    ).toBe(404);
  });

  it('frees the username for a new registration', async () => {
    const doctor = await createDoctor(t);
    expect((await remove(admin, doctor.doctorId)).statusCode).toBe(200);
    expect((await register(registrationFields({ username: doctor.username }))).statusCode).toBe(200);
  });

  it('refuses doctors (even for themselves) and Web users without the page (403), anonymous callers (401)', async () => {
    const doctor = await createDoctor(t, { active: true });
    expect((await remove(doctor.token!, doctor.doctorId)).statusCode).toBe(403);
    expect((await remove(dashboardStaff, doctor.doctorId)).statusCode).toBe(403);
    expect((await remove(casesStaff, doctor.doctorId)).statusCode).toBe(403);
    expect((await remove(null, doctor.doctorId)).statusCode).toBe(401);
    expect(await ownDetailStatus(doctor)).toBe(200);
  });

  it('answers 404 for an unknown doctor and 400 for a bad id', async () => {
    expect((await remove(admin, 99_999_999)).statusCode).toBe(404);
    expect((await t.as(admin, { method: 'DELETE', url: '/api/doctor/delete/abc' })).statusCode).toBe(400);
  });
});
