// @vitest-environment happy-dom
import { ADMIN_ROLE_ID, DOCTOR_ROLE_ID, type Clinic, type Doctor, type Role } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../../testing/fake-api.ts';
import {
  fieldDescription,
  fill,
  findToast,
  inputLabelled,
  pickOption,
  renderWithApp,
} from '../../../testing/render.tsx';
import { signInAs } from '../../../testing/session.ts';
import { DoctorForm } from './doctor-form.tsx';

const doctor: Doctor = {
  UserId: 5,
  DoctorId: 9,
  UserName: 'ada',
  RoleId: DOCTOR_ROLE_ID,
  FirstName: 'Ada',
  LastName: 'Lovelace',
  Email: 'ada@clinic.test',
  MobileNo: '',
  ProfilePic: null,
  Profession: '',
  ProfessionalSpecialization: '',
  AcademicTitle: '',
  Message: '',
  IsActive: true,
  CountryId: 2,
  Gender: 'Female',
  createdAt: '2026-01-05T10:00:00.000Z',
  userType: 'Doctor',
};
const clinics: Clinic[] = [
  { ClinicId: 4, CountryId: 2, CityId: 20, ClinicName: 'Smile Clinic', ContactNo: '', Address: 'Unter den Linden 1' },
];
const roles: Role[] = [
  { RoleId: ADMIN_ROLE_ID, RoleName: 'Administrator', Description: '', RequiresSecondFactor: false },
  { RoleId: DOCTOR_ROLE_ID, RoleName: 'Doctor', Description: '', RequiresSecondFactor: false },
  { RoleId: 7, RoleName: 'Front desk', Description: '', RequiresSecondFactor: false },
];
const serverAnswers = {
  'GET /api/role/get_roles_list': roles,
  'GET /api/country/get_countries_list': [{ CountryId: 2, CountryName: 'Germany' }],
  'GET /api/city/get_cities_list/2': [{ CityId: 20, CityName: 'Berlin' }],
  'POST /api/doctor/request_password_reset/9': {
    success: true,
    message: 'A link to set a new password has been e-mailed to the doctor',
  },
};

const field = inputLabelled;
const value = (label: string) => (field(label) as HTMLInputElement).value;
const isDisabled = (label: string) => field(label).hasAttribute('disabled');
const submit = () => screen.getByRole('button', { name: 'Submit' });
const noop = () => {};

describe('Doctor form for staff', () => {
  it('adds a doctor as Active with the Doctor role, and never offers Administrator', async () => {
    signInAs({ userId: 1, userName: 'admin', userType: 'Web', roleId: ADMIN_ROLE_ID });
    fakeApi(serverAnswers);
    const { user } = renderWithApp(<DoctorForm mode="staff" onSaved={noop} onCancel={noop} />);
    await waitFor(() => expect(value('Role')).toBe('Doctor'));
    expect(value('Status')).toBe('Active');
    await user.click(field('Role'));
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toEqual(['Doctor', 'Front desk']);
  });

  it('keeps a required pick when its selected option is picked again', async () => {
    signInAs({ userId: 1, userName: 'admin', userType: 'Web', roleId: ADMIN_ROLE_ID });
    fakeApi(serverAnswers);
    const { user } = renderWithApp(<DoctorForm mode="staff" onSaved={noop} onCancel={noop} />);
    await waitFor(() => expect(value('Role')).toBe('Doctor'));
    for (const [label, option] of [
      ['Role', 'Doctor'],
      ['Gender', 'Female'],
      ['Gender', 'Female'],
    ] as const) {
      await pickOption(user, label, option);
      expect(value(label)).toBe(option);
      expect(fieldDescription(field(label))).not.toContain('is required');
    }
  });

  it('keeps the password locked until Change Password, then requires it; sends nothing meanwhile', async () => {
    signInAs({ userId: 1, userName: 'admin', userType: 'Web', roleId: ADMIN_ROLE_ID });
    const api = fakeApi(serverAnswers);
    const { user } = renderWithApp(
      <DoctorForm mode="staff" doctor={doctor} clinics={clinics} onSaved={noop} onCancel={noop} />,
    );
    expect(value('Username')).toBe('ada');
    for (const label of ['Password', 'Confirm Password']) {
      expect(isDisabled(label)).toBe(true);
      expect(field(label).getAttribute('placeholder')).toBe('********');
    }
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(isDisabled('Password')).toBe(false);
    await user.click(submit());
    await waitFor(() => expect(fieldDescription(field('Password'))).toContain('Password is required'));
    expect(api.changes()).toEqual([]);
  });

  it("offers other staff a reset link instead of the doctor's password and e-mail", async () => {
    signInAs({ userId: 2, userName: 'clerk', userType: 'Web', roleId: 7 });
    const api = fakeApi(serverAnswers);
    const { user } = renderWithApp(
      <DoctorForm mode="staff" doctor={doctor} clinics={clinics} onSaved={noop} onCancel={noop} />,
    );
    expect(isDisabled('Email')).toBe(true);
    expect(fieldDescription(field('Email'))).toContain("Only the administrator can change a doctor's e-mail address");
    expect(screen.queryByRole('button', { name: 'Change Password' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'E-mail the doctor a reset link' }));
    await findToast('A link to set a new password has been e-mailed to the doctor');
    expect(api.changes().map(({ method, path }) => `${method} ${path}`)).toEqual([
      'POST /api/doctor/request_password_reset/9',
    ]);
  });
});

describe('Doctor form on the profile', () => {
  it('shows the own record with the username disabled, the password locked, and no role or status', async () => {
    signInAs({ userId: doctor.UserId, userName: 'ada', userType: 'Doctor', roleId: DOCTOR_ROLE_ID });
    fakeApi(serverAnswers);
    renderWithApp(<DoctorForm mode="profile" doctor={doctor} clinics={clinics} onSaved={noop} onCancel={noop} />);
    expect(value('Username')).toBe('ada');
    expect(isDisabled('Username')).toBe(true);
    expect(isDisabled('Password')).toBe(true);
    expect(field('Password').getAttribute('placeholder')).toBe('********');
    await waitFor(() => expect(value('Location')).toBe('Germany'));
    expect(value('Gender')).toBe('Female');
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: 'Clinics' })).getByRole('row', { name: /Smile Clinic/ }).textContent,
      ).toContain('Berlin'),
    );
    // Role and status are not the doctor's to change.
    expect(screen.queryByLabelText(/^Role/)).toBeNull();
    expect(screen.queryByLabelText(/^Status/)).toBeNull();
  });

  it('asks for the current password only once the password or the e-mail is about to change', async () => {
    signInAs({ userId: doctor.UserId, userName: 'ada', userType: 'Doctor', roleId: DOCTOR_ROLE_ID });
    const api = fakeApi(serverAnswers);
    const { user } = renderWithApp(
      <DoctorForm mode="profile" doctor={doctor} clinics={clinics} onSaved={noop} onCancel={noop} />,
    );
    expect(screen.queryByLabelText(/^Current Password/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(field('Current Password')).toBeTruthy();
    expect(isDisabled('Password')).toBe(false);
    await user.click(submit());
    await waitFor(() => expect(fieldDescription(field('Password'))).toContain('Password is required'));
    expect(api.changes()).toEqual([]);
  });

  it('asks for the current password when the e-mail changes', async () => {
    signInAs({ userId: doctor.UserId, userName: 'ada', userType: 'Doctor', roleId: DOCTOR_ROLE_ID });
    fakeApi(serverAnswers);
    const { user } = renderWithApp(
      <DoctorForm mode="profile" doctor={doctor} clinics={clinics} onSaved={noop} onCancel={noop} />,
    );
    await fill(user, field('Email'), 'moved.ada@clinic.test');
    await waitFor(() => expect(field('Current Password')).toBeTruthy());
    // Back to the stored address (in another case): nothing to confirm.
    await fill(user, field('Email'), 'ADA@clinic.test');
    await waitFor(() => expect(screen.queryByLabelText(/^Current Password/)).toBeNull());
  });
});
