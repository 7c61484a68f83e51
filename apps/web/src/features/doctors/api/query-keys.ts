import { doctorKeys } from '../../../lib/shared-queries.ts';

export const doctorDetailKeys = {
  byUser: (userId: number) => [...doctorKeys.all, 'by-user', userId] as const,
};

export const clinicKeys = {
  all: ['clinics'] as const,
  ofDoctor: (doctorId: number) => [...clinicKeys.all, doctorId] as const,
};

/** Countries and their cities never change while the app runs. */
export const geographyKeys = {
  countries: () => ['countries'] as const,
  cities: (countryId: number) => ['cities', countryId] as const,
};
