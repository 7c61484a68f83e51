import { clinic, clinicOption, city, country } from '../clinics.ts';
import { idParams } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';

/** Staff who manage doctors or cases read any doctor's clinics; a doctor only their own. */
const access = { pages: ['/doctors', '/cases', '/dashboard'], doctors: true, assistants: true } as const;

export const clinicEndpoints = {
  clinicListOfDoctor: defineEndpoint({
    method: 'GET',
    path: '/api/clinic/get_clinics_list/:id',
    record: 'doctor',
    operationId: 'clinicListOfDoctor',
    summary: "A doctor's clinics, by DoctorId",
    tag: 'clinics',
    access,
    params: idParams,
    answer: clinic.array(),
    errors: [404],
  }),
  clinicListOfUser: defineEndpoint({
    method: 'GET',
    path: '/api/clinic/get_clinics_list_by_user_id/:id',
    record: 'doctorUser',
    operationId: 'clinicListOfUser',
    summary: "A doctor's clinics by the doctor's UserId, as options for the case form",
    tag: 'clinics',
    access,
    params: idParams,
    answer: clinicOption.array(),
    errors: [404],
  }),
};

/** Public: the registration form needs them before anyone signs in. */
export const geographyEndpoints = {
  countryList: defineEndpoint({
    method: 'GET',
    path: '/api/country/get_countries_list',
    operationId: 'countryList',
    summary: 'List the countries',
    tag: 'geography',
    access: 'public',
    answer: country.array(),
  }),
  cityList: defineEndpoint({
    method: 'GET',
    path: '/api/city/get_cities_list/:id',
    operationId: 'cityList',
    summary: "List a country's cities",
    tag: 'geography',
    access: 'public',
    params: idParams,
    answer: city.array(),
    errors: [404],
  }),
};
