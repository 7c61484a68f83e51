import { z } from 'zod';
import { controlCharactersMessage, isOneLine, optionalText, requiredId } from './fields.ts';

export const clinicEntry = z.object({
  clinicId: z.preprocess(
    (value) => (value === undefined || value === null || value === '' ? 0 : Number(value)),
    z
      .number({ error: 'Clinic is not valid' })
      .int('Clinic is not valid')
      .min(0, 'Clinic is not valid')
      .max(2147483647, 'Clinic is not valid'),
  ),
  clinicName: z
    .string({ error: 'Clinic Name is required!' })
    .trim()
    .min(1, 'Clinic Name is required!')
    .max(200, 'Clinic Name must be at most 200 characters')
    .refine(isOneLine, controlCharactersMessage('Clinic Name')),
  countryId: requiredId('Location is required', 'Location is not valid'),
  cityId: requiredId('City is required!', 'City is not valid'),
  contactNo: optionalText('Contact No', 30),
  address: optionalText('Address', 500),
});
export type ClinicEntry = z.infer<typeof clinicEntry>;

export const clinicListMessage = 'Please add clinic information, atleast 1 clinic is required';
/** Submit with a clinic typed but not complete: it is not sent until it is (docs/decisions/accounts.md § Clinics in a doctor's form). */
export const clinicNotAddedMessage =
  'The clinic you typed is not added yet: complete it and press Add Clinic, or clear its fields';

/** clinicList travels as a JSON string inside multipart bodies. */
export const clinicList = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value ?? [];
    try {
      return value.trim() === '' ? [] : JSON.parse(value);
    } catch {
      return value;
    }
  },
  z
    .array(clinicEntry, { error: 'Clinic information is not valid' })
    .min(1, clinicListMessage)
    .max(50, 'At most 50 clinics'),
);

export const clinic = z.object({
  ClinicId: z.number(),
  CountryId: z.number(),
  CityId: z.number(),
  ClinicName: z.string(),
  ContactNo: z.string(),
  Address: z.string(),
});
export type Clinic = z.infer<typeof clinic>;

export const clinicOption = z.object({ ClinicId: z.number(), ClinicName: z.string() });
export type ClinicOption = z.infer<typeof clinicOption>;

export const country = z.object({ CountryId: z.number(), CountryName: z.string() });
export type Country = z.infer<typeof country>;
export const city = z.object({ CityId: z.number(), CityName: z.string() });
export type City = z.infer<typeof city>;
