import { describe, expect, it } from 'vitest';
import {
  clinicEntry,
  clinicList,
  doctorAddRequest,
  doctorForm,
  loginRequest,
  resetPasswordForm,
  resetPasswordRequest,
  roleRequest,
  toFieldErrors,
  userAddRequest,
  userEditRequest,
  userForm,
} from '../src/index.ts';
import type { z } from 'zod';

/** The first message per field, as the server answers and the forms show. */
function errorsOf(schema: z.ZodType, input: unknown): Record<string, string> {
  const result = schema.safeParse(input);
  return result.success ? {} : toFieldErrors(result.error);
}

const validClinic = { clinicId: 0, clinicName: 'Smile', countryId: 1, cityId: 2, contactNo: '', address: '' };
const validDoctor = {
  username: 'drwho',
  firstname: 'Ada',
  lastname: 'Lovelace',
  password: 'secret-phrase-1',
  email: 'ada@clinic.test',
  countryId: '1',
  gender: 'Female',
  clinicList: JSON.stringify([validClinic]),
  isActive: 'false',
};
const validUser = {
  username: 'staff1',
  firstname: 'Sam',
  lastname: 'Staff',
  password: 'secret-phrase-1',
  email: 'sam@lab.test',
  mobileNo: '5550101',
  roleId: '3',
};

describe('login', () => {
  it('requires username and password, whitespace counting as empty', () => {
    expect(errorsOf(loginRequest, { username: '  ', password: '   ' })).toEqual({
      username: 'Username is required',
      password: 'Password is required',
    });
    expect(errorsOf(loginRequest, {})).toEqual({ username: 'Username is required', password: 'Password is required' });
  });
});

describe('shared field rules', () => {
  it('username: required, then at least 3 characters', () => {
    expect(errorsOf(userAddRequest, { ...validUser, username: '' }).username).toBe('Username is required');
    expect(errorsOf(userAddRequest, { ...validUser, username: 'ab' }).username).toBe(
      'Username must be at least 3 characters',
    );
  });

  it('email: required, then the x@y.z shape', () => {
    expect(errorsOf(userAddRequest, { ...validUser, email: ' ' }).email).toBe('Email is required');
    for (const bad of ['plain', 'a@b', '@b.c', 'a b@c.d']) {
      expect(errorsOf(userAddRequest, { ...validUser, email: bad }).email).toBe('Email is not valid');
    }
    expect(errorsOf(userAddRequest, { ...validUser, email: 'a@b.co' }).email).toBeUndefined();
  });

  it('password: required, then at least 12 characters; on Add User it may be left out (an invitation sets it)', () => {
    const reset = { token: 'link', newPassword: '' };
    expect(errorsOf(resetPasswordRequest, reset).newPassword).toBe('Password is required');
    expect(errorsOf(resetPasswordRequest, { ...reset, newPassword: '      ' }).newPassword).toBe(
      'Password is required',
    );
    expect(errorsOf(resetPasswordRequest, { ...reset, newPassword: '12345' }).newPassword).toBe(
      'Password must be at least 12 characters',
    );
    expect(errorsOf(userAddRequest, { ...validUser, password: '' }).password).toBeUndefined();
    expect(errorsOf(userAddRequest, { ...validUser, password: '12345' }).password).toBe(
      'Password must be at least 12 characters',
    );
  });

  it('role: Role is required', () => {
    expect(errorsOf(userAddRequest, { ...validUser, roleId: '' }).roleId).toBe('Role is required');
    expect(errorsOf(userAddRequest, { ...validUser, roleId: 'abc' }).roleId).toBe('Role is required');
  });
});

describe('role form', () => {
  it('needs a role name; the description is optional', () => {
    expect(errorsOf(roleRequest, { roleName: '', description: '' })).toEqual({ roleName: 'Role Name is required' });
    expect(roleRequest.parse({ roleName: ' Lab ' })).toEqual({ roleName: 'Lab', description: '' });
  });
});

describe('user form', () => {
  it('requires everything but the picture, with "{label} is required"', () => {
    expect(errorsOf(userAddRequest, {})).toMatchObject({
      username: 'Username is required',
      firstname: 'First Name is required',
      lastname: 'Last Name is required',
      email: 'Email is required',
      mobileNo: 'Mobile No is required',
      roleId: 'Role is required',
    });
    // Without a password the new user is invited to set their own.
    expect(errorsOf(userAddRequest, {}).password).toBeUndefined();
  });

  it('confirm password must match', () => {
    const form = { ...validUser, isEdit: false };
    expect(errorsOf(userForm, { ...form, confirmPassword: 'other-phrase-1' }).confirmPassword).toBe(
      'Passwords do not match',
    );
    expect(errorsOf(userForm, { ...form, confirmPassword: 'secret-phrase-1' })).toEqual({});
  });

  it('shows a password mismatch while other fields are still empty', () => {
    const errors = errorsOf(userForm, {
      username: '',
      password: 'secret-phrase-1',
      confirmPassword: 'other-phrase-1',
      isEdit: false,
    });
    expect(errors.username).toBe('Username is required');
    expect(errors.confirmPassword).toBe('Passwords do not match');
  });

  it('an empty password on edit keeps the current one', () => {
    expect(userEditRequest.parse({ ...validUser, password: '' }).password).toBe('');
    expect(errorsOf(userEditRequest, { ...validUser, password: '123' }).password).toBe(
      'Password must be at least 12 characters',
    );
  });
});

describe('doctor form', () => {
  it('accepts a registration and defaults role 19, inactive', () => {
    const parsed = doctorAddRequest.parse({ ...validDoctor, isActive: undefined });
    expect(parsed.roleId).toBe(19);
    expect(parsed.isActive).toBe(false);
    expect(parsed.clinicList).toEqual([validClinic]);
  });

  it('requires country (as Location), gender and a clinic', () => {
    expect(errorsOf(doctorAddRequest, { ...validDoctor, countryId: '', gender: '', clinicList: '[]' })).toEqual({
      countryId: 'Location is required',
      gender: 'Gender is required',
      clinicList: 'Please add clinic information, atleast 1 clinic is required',
    });
  });

  it('leaves description, mobile, profession, specialization and academic title optional', () => {
    const parsed = doctorAddRequest.parse(validDoctor);
    expect(parsed).toMatchObject({ description: '', mobileNo: '', profession: '', academicTitle: '' });
  });

  it('reads status as true/false/1/0', () => {
    expect(doctorAddRequest.parse({ ...validDoctor, isActive: '1' }).isActive).toBe(true);
    expect(doctorAddRequest.parse({ ...validDoctor, isActive: 'false' }).isActive).toBe(false);
    expect(
      errorsOf(doctorForm, { ...validDoctor, roleId: 19, isActive: '', isEdit: true, confirmPassword: '' }).isActive,
    ).toBe('Status is required');
  });

  it('refuses a clinic list that is not JSON', () => {
    expect(errorsOf(clinicList, '{not json')).toEqual({ _: 'Clinic information is not valid' });
  });
});

describe('add clinic', () => {
  it('needs a clinic name and a city, with the exclamation marks of the spec', () => {
    expect(errorsOf(clinicEntry, { ...validClinic, clinicName: ' ', cityId: '' })).toEqual({
      clinicName: 'Clinic Name is required!',
      cityId: 'City is required!',
    });
  });
});

describe('reset password form', () => {
  it('validates both fields and that they match', () => {
    expect(errorsOf(resetPasswordForm, { newPassword: '', confirmPassword: '' })).toEqual({
      newPassword: 'Password is required',
      confirmPassword: 'Confirm Password is required',
    });
    expect(errorsOf(resetPasswordForm, { newPassword: 'secret-phrase-1', confirmPassword: 'secret-phrase-2' })).toEqual(
      {
        confirmPassword: 'Passwords do not match',
      },
    );
  });
});
