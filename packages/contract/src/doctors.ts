import { z } from 'zod';
import { accountListQuery, accountSortColumns, sortOf } from './cases.ts';
import { clinicList } from './clinics.ts';
import {
  booleanField,
  currentPassword,
  email,
  gender,
  nameText,
  optionalPassword,
  optionalText,
  password,
  passwordsMatchMessage,
  requiredId,
  requiredMessage,
  userType,
  username,
} from './fields.ts';
import { locale } from './locale-schema.ts';
import { DOCTOR_ROLE_ID } from './roles.ts';

const doctorFields = {
  username,
  firstname: nameText('First Name'),
  lastname: nameText('Last Name'),
  email,
  mobileNo: optionalText('Mobile No', 30).refine(
    (value) => value === '' || /^\+?[\d\s()-]{4,30}$/.test(value),
    'Mobile No is not valid',
  ),
  roleId: requiredId('Role is required', 'Role is not valid'),
  countryId: requiredId('Location is required', 'Location is not valid'),
  gender,
  profession: optionalText('Profession', 100),
  professionSpecialization: optionalText('Professional Specialization', 100),
  academicTitle: optionalText('Academic Title', 100),
  description: optionalText('Description', 2000),
  clinicList,
  isActive: booleanField('Status'),
};

/** POST /doctor/add: public self-registration, and staff adding a doctor. */
export const doctorAddRequest = z.object({
  ...doctorFields,
  roleId: doctorFields.roleId.default(DOCTOR_ROLE_ID),
  isActive: doctorFields.isActive.default(false),
  password,
  userType: z.literal('Doctor').default('Doctor'),
  /** The new doctor's language; without it, a registration's Accept-Language decides, staff adding one give `en` (docs/decisions/languages.md § The user's language on the server). */
  locale: locale.optional(),
});
export type DoctorAddRequest = z.infer<typeof doctorAddRequest>;

/** PUT /doctor/edit/{doctorId}: an empty password keeps the current one. */
export const doctorEditRequest = z.object({ ...doctorFields, password: optionalPassword, currentPassword });
export type DoctorEditRequest = z.infer<typeof doctorEditRequest>;

/**
 * The register, profile and Doctors screen form. `isEdit` true means an empty password
 * keeps the stored one. The password checks run even while other fields are invalid, so
 * their messages show as the person types, not only once the rest of the form is right.
 */
export const doctorForm = z
  .object({
    ...doctorFields,
    password: optionalPassword,
    confirmPassword: z.string({ error: requiredMessage('Confirm Password') }),
    isEdit: z.boolean(),
  })
  .superRefine(
    (form, ctx) => {
      if (!form.isEdit && form.password === '') {
        ctx.addIssue({ code: 'custom', path: ['password'], message: requiredMessage('Password') });
      }
      if (form.password !== '' && form.password !== form.confirmPassword) {
        ctx.addIssue({
          code: 'custom',
          path: ['confirmPassword'],
          message: form.confirmPassword === '' ? requiredMessage('Confirm Password') : passwordsMatchMessage,
        });
      }
    },
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
  );

export const doctor = z.object({
  UserId: z.number(),
  DoctorId: z.number(),
  UserName: z.string(),
  RoleId: z.number(),
  FirstName: z.string(),
  LastName: z.string(),
  Email: z.string(),
  MobileNo: z.string(),
  ProfilePic: z.string().nullable(),
  Profession: z.string(),
  ProfessionalSpecialization: z.string(),
  AcademicTitle: z.string(),
  Message: z.string(),
  IsActive: z.boolean(),
  CountryId: z.number().nullable(),
  Gender: z.string(),
  createdAt: z.string(),
  userType,
});
export type Doctor = z.infer<typeof doctor>;

export const registrationSucceeded =
  'Registration successful. Your activation status will be notified via the provided e-mail.';

/**
 * The doctor list's query: a page, a search, `active=false` for those waiting for activation,
 * and `userId` for one doctor (the case form names the doctor an order or a draft is for).
 */
export const doctorListQuery = accountListQuery.extend({
  active: z.enum(['true', 'false'], { error: 'Active is true or false' }).optional(),
  userId: z.coerce
    .number({ error: 'User is not valid' })
    .int('User is not valid')
    .min(1, 'User is not valid')
    .max(2_147_483_647, 'User is not valid')
    .optional(),
  sort: sortOf([...accountSortColumns, 'IsActive']),
});
export type DoctorListQuery = z.infer<typeof doctorListQuery>;
