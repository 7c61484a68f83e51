import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDoctor,
  createStaff,
  doctorEditFields,
  formData,
  type ClinicRow,
  type CreatedDoctor,
} from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

interface Country {
  CountryId: number;
  CountryName: string;
}
interface City {
  CityId: number;
  CityName: string;
}

let t: TestApp;
let admin: string;
let countries: Country[];
/** Two active doctors, each with one clinic; staff with one page each; one without any clinic page. */
let doctorA: CreatedDoctor;
let doctorB: CreatedDoctor;
let staffByPage: Record<'doctors' | 'cases' | 'dashboard', string>;
let rolesStaff: { token: string; userId: number };

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  countries = (await t.app.inject({ method: 'GET', url: '/api/country/get_countries_list' })).json<Country[]>();
  doctorA = await createDoctor(t, { active: true });
  doctorB = await createDoctor(t, { active: true });
  staffByPage = {
    doctors: (await createStaff(t, [5])).token,
    cases: (await createStaff(t, [6])).token,
    dashboard: (await createStaff(t, [1])).token,
  };
  rolesStaff = await createStaff(t, [2]);
});
afterAll(() => t.close());

const cities = (countryId: number | string, token: string | null = null) =>
  t.as(token, { method: 'GET', url: `/api/city/get_cities_list/${countryId}` });
const countryNamed = (name: string) => countries.find((country) => country.CountryName === name)!;

describe('GET /country/get_countries_list', () => {
  it('lists every country (about 250) with CountryId and CountryName, to anyone', async () => {
    expect(countries.length).toBeGreaterThanOrEqual(240);
    expect(countries.length).toBeLessThanOrEqual(260);
    for (const country of countries) expect(Object.keys(country).sort()).toEqual(['CountryId', 'CountryName']);
    expect(new Set(countries.map((country) => country.CountryId)).size).toBe(countries.length);
    expect(countries[0]).toEqual({ CountryId: 1, CountryName: 'Afghanistan' });
    for (const name of ['United States', 'United Kingdom', 'Germany', 'India', 'Pakistan'])
      expect(countryNamed(name)).toBeDefined();
  });

  it('answers the same list to a signed-in user', async () => {
    const response = await t.as(admin, { method: 'GET', url: '/api/country/get_countries_list' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(countries);
  });
});

describe('GET /city/get_cities_list/{countryId}', () => {
  it("lists a country's cities with CityId and CityName, to anyone", async () => {
    const response = await cities(countryNamed('Albania').CountryId);
    expect(response.statusCode).toBe(200);
    const rows = response.json<City[]>();
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) expect(Object.keys(row).sort()).toEqual(['CityId', 'CityName']);
    expect(rows.map((row) => row.CityName)).toContain('Tirana');
  });

  it('tells apart cities of the same name by their state', async () => {
    const rows = (await cities(countryNamed('United States').CountryId)).json<City[]>();
    const names = rows.map((row) => row.CityName);
    expect(names).toEqual(
      expect.arrayContaining(['Springfield, Illinois', 'Springfield, Missouri', 'Springfield, Massachusetts']),
    );
    expect(names).not.toContain('Springfield');
    expect(new Set(names).size).toBe(names.length);
    // A name that occurs once keeps its plain form.
    expect(names).toContain('Chicago');
  });

  it('answers an empty list for a country without cities, 404 for an unknown country', async () => {
    const empty = await cities(countryNamed('Aland Islands').CountryId);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual([]);
    const unknown = await cities(99_999);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Country not found', code: 'notFound', params: { what: 'Country' } });
  });

  it('answers 400 for an id that is not a whole number', async () => {
    const cases: [string, string][] = [
      ['abc', 'Id must be a number'],
      ['1.5', 'Id must be a whole number'],
      ['99999999999', 'Id is out of range'],
    ];
    for (const [id, message] of cases) {
      const response = await cities(id);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message, fieldErrors: { id: message } });
    }
  });
});

describe('GET /clinic/get_clinics_list/{doctorId}', () => {
  const clinicsOf = (token: string | null, doctorId: number | string) =>
    t.as(token, { method: 'GET', url: `/api/clinic/get_clinics_list/${doctorId}` });

  it("lists a doctor's clinics with the spec fields, for the doctor and for staff", async () => {
    for (const token of [doctorA.token!, admin, staffByPage.doctors, staffByPage.cases, staffByPage.dashboard]) {
      const response = await clinicsOf(token, doctorA.doctorId);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([
        {
          ClinicId: expect.any(Number),
          CountryId: 1,
          CityId: expect.any(Number),
          ClinicName: 'Smile Clinic',
          ContactNo: '123456',
          Address: '1 Main St',
        },
      ]);
    }
  });

  it('leaves out clinics the doctor dropped', async () => {
    const doctor = await createDoctor(t, { active: true });
    const [kept] = (await clinicsOf(admin, doctor.doctorId)).json<ClinicRow[]>();
    const fields = await doctorEditFields(t, doctor, {
      clinicList: JSON.stringify([
        { clinicId: 0, clinicName: 'Only Clinic', countryId: kept!.CountryId, cityId: kept!.CityId },
      ]),
    });
    expect(
      (
        await t.as(doctor.token!, {
          method: 'PUT',
          url: `/api/doctor/edit/${doctor.doctorId}`,
          payload: formData(fields),
        })
      ).statusCode,
    ).toBe(200);
    const rows = (await clinicsOf(doctor.token!, doctor.doctorId)).json<ClinicRow[]>();
    expect(rows.map((row) => row.ClinicName)).toEqual(['Only Clinic']);
  });

  it("gives a doctor 404 for another doctor's clinics", async () => {
    const response = await clinicsOf(doctorA.token!, doctorB.doctorId);
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('Smile Clinic');
  });

  it('refuses a Web user without a page that needs clinics (403) and anonymous callers (401)', async () => {
    expect((await clinicsOf(rolesStaff.token, doctorA.doctorId)).statusCode).toBe(403);
    expect((await clinicsOf(null, doctorA.doctorId)).statusCode).toBe(401);
  });

  it('answers 404 for an unknown or deleted doctor and 400 for a bad id', async () => {
    expect((await clinicsOf(admin, 99_999_999)).statusCode).toBe(404);
    const deleted = await createDoctor(t);
    expect((await t.as(admin, { method: 'DELETE', url: `/api/doctor/delete/${deleted.doctorId}` })).statusCode).toBe(
      200,
    );
    expect((await clinicsOf(admin, deleted.doctorId)).statusCode).toBe(404);
    expect((await clinicsOf(admin, 'abc')).statusCode).toBe(400);
  });
});

describe('GET /clinic/get_clinics_list_by_user_id/{userId}', () => {
  const clinicsOfUser = (token: string | null, userId: number | string) =>
    t.as(token, { method: 'GET', url: `/api/clinic/get_clinics_list_by_user_id/${userId}` });

  it("lists a doctor's clinics as ClinicId and ClinicName, for the doctor and for staff", async () => {
    for (const token of [doctorA.token!, admin, staffByPage.doctors, staffByPage.cases, staffByPage.dashboard]) {
      const response = await clinicsOfUser(token, doctorA.userId);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([{ ClinicId: expect.any(Number), ClinicName: 'Smile Clinic' }]);
    }
  });

  it("gives a doctor 404 for another doctor's clinics", async () => {
    expect((await clinicsOfUser(doctorA.token!, doctorB.userId)).statusCode).toBe(404);
  });

  it('refuses a Web user without a page that needs clinics (403) and anonymous callers (401)', async () => {
    expect((await clinicsOfUser(rolesStaff.token, doctorA.userId)).statusCode).toBe(403);
    expect((await clinicsOfUser(null, doctorA.userId)).statusCode).toBe(401);
  });

  it('answers 404 for a user who is not a doctor or does not exist, 400 for a bad id', async () => {
    expect((await clinicsOfUser(admin, rolesStaff.userId)).statusCode).toBe(404);
    expect((await clinicsOfUser(admin, 99_999_999)).statusCode).toBe(404);
    expect((await clinicsOfUser(admin, 'abc')).statusCode).toBe(400);
  });
});
