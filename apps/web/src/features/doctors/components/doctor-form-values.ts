import { msg } from '@lingui/core/macro';
import { DOCTOR_ROLE_ID, type Clinic, type Doctor, type UserType } from '@portal/contract';

/** A clinic row of the form: what the server takes, plus nothing else. */
export interface ClinicRow {
  clinicId: number;
  countryId: number;
  cityId: number;
  clinicName: string;
  contactNo: string;
  address: string;
}

/** Which screen the doctor form serves: it decides the fields shown and where it goes after. */
export type DoctorFormMode = 'register' | 'staff' | 'profile';

/** Select values are strings; isActive is '1' (Active) or '0' (Inactive). */
export interface DoctorFormValues {
  username: string;
  firstname: string;
  lastname: string;
  password: string;
  confirmPassword: string;
  /** Asked on the profile when the password or e-mail changes (docs/decisions/sign-in-and-sessions.md § Changing one's own password or e-mail). */
  currentPassword: string;
  email: string;
  mobileNo: string;
  roleId: string | null;
  countryId: string | null;
  gender: string | null;
  profession: string;
  professionSpecialization: string;
  academicTitle: string;
  description: string;
  clinicList: ClinicRow[];
  isActive: string | null;
  /** True while an empty password keeps the stored one (editing, before Change Password). */
  isEdit: boolean;
  profilePic: File | null;
  removeProfilePic: boolean;
}

export const statusOptions = ['1', '0'] as const;

/** The words of the status select's values. */
export const statusLabels = { '1': msg`Active`, '0': msg`Inactive` } as const;

const toClinicRow = (clinic: Clinic): ClinicRow => ({
  clinicId: clinic.ClinicId,
  countryId: clinic.CountryId,
  cityId: clinic.CityId,
  clinicName: clinic.ClinicName,
  contactNo: clinic.ContactNo,
  address: clinic.Address,
});

/** An empty form for a new doctor, or one filled from the stored doctor and clinics. */
export function initialDoctorValues(mode: DoctorFormMode, doctor?: Doctor, clinics: Clinic[] = []): DoctorFormValues {
  return {
    username: doctor?.UserName ?? '',
    firstname: doctor?.FirstName ?? '',
    lastname: doctor?.LastName ?? '',
    password: '',
    confirmPassword: '',
    currentPassword: '',
    email: doctor?.Email ?? '',
    mobileNo: doctor?.MobileNo ?? '',
    roleId: String(doctor?.RoleId ?? DOCTOR_ROLE_ID),
    countryId: doctor?.CountryId == null ? null : String(doctor.CountryId),
    gender: doctor?.Gender || null,
    profession: doctor?.Profession ?? '',
    professionSpecialization: doctor?.ProfessionalSpecialization ?? '',
    academicTitle: doctor?.AcademicTitle ?? '',
    description: doctor?.Message ?? '',
    clinicList: clinics.map(toClinicRow),
    // Self-registered doctors start inactive; staff adding one usually mean it to work at once.
    isActive: doctor ? (doctor.IsActive ? '1' : '0') : mode === 'staff' ? '1' : '0',
    isEdit: doctor !== undefined,
    profilePic: null,
    removeProfilePic: false,
  };
}

/** The multipart body of /doctor/add and /doctor/edit (docs/spec.md section 7). */
export function toDoctorFormData(values: DoctorFormValues, isNew: boolean): FormData {
  const form = new FormData();
  const fields: Record<string, string> = {
    username: values.username,
    firstname: values.firstname,
    lastname: values.lastname,
    password: values.password,
    email: values.email,
    mobileNo: values.mobileNo,
    roleId: values.roleId ?? '',
    countryId: values.countryId ?? '',
    gender: values.gender ?? '',
    profession: values.profession,
    professionSpecialization: values.professionSpecialization,
    academicTitle: values.academicTitle,
    description: values.description,
    clinicList: JSON.stringify(values.clinicList),
    isActive: values.isActive === '1' ? 'true' : 'false',
  };
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (values.currentPassword !== '') form.append('currentPassword', values.currentPassword);
  const doctorType: UserType = 'Doctor';
  if (isNew) form.append('userType', doctorType);
  if (values.profilePic) form.append('profilePic', values.profilePic);
  else if (values.removeProfilePic) form.append('removeProfilePic', 'true');
  return form;
}
