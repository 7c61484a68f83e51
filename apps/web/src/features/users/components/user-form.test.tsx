// @vitest-environment happy-dom
import { ADMIN_ROLE_ID, DOCTOR_ROLE_ID, type Role } from '@portal/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../testing/fake-api.ts';
import {
  fieldDescription,
  fileInputOf,
  fill,
  findToast,
  inputLabelled,
  labelled,
  renderWithApp,
} from '../../../testing/render.tsx';
import { UserForm } from './user-form.tsx';

const roles: Role[] = [
  { RoleId: ADMIN_ROLE_ID, RoleName: 'Administrator', Description: '', RequiresSecondFactor: false },
  { RoleId: DOCTOR_ROLE_ID, RoleName: 'Doctor', Description: '', RequiresSecondFactor: false },
  { RoleId: 7, RoleName: 'Front desk', Description: '', RequiresSecondFactor: false },
];

const textbox = (name: string) => screen.getByRole('textbox', { name: labelled(name) });
const passwordInput = inputLabelled;
const roleSelect = () => inputLabelled('Role');
const pictureButton = () => screen.getByRole('button', { name: labelled('Profile Picture') });
const pictureInput = () => fileInputOf(pictureButton());

describe('User form', () => {
  it('shows each required message under its field on Submit and sends nothing', async () => {
    const api = fakeApi();
    const { user } = renderWithApp(<UserForm roles={roles} onClose={() => {}} />);
    expect(screen.getByRole('heading', { name: 'Add User' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const required = {
      Username: 'Username is required',
      'First Name': 'First Name is required',
      'Last Name': 'Last Name is required',
      Email: 'Email is required',
      'Mobile No': 'Mobile No is required',
    };
    for (const [label, message] of Object.entries(required)) {
      await waitFor(() => expect(fieldDescription(textbox(label))).toBe(message));
    }
    // A new user sets their own password from the invitation: no password to type.
    expect(screen.queryByLabelText(labelled('Password'))).toBeNull();
    expect(screen.getByText(/An e-mail invites the new user to set their own password/)).toBeTruthy();
    expect(fieldDescription(roleSelect())).toBe('Role is required');
    expect(api.sent).toEqual([]);
  });

  it('checks each field as it changes, message by message, and refuses a picture that is not JPEG or PNG', async () => {
    const api = fakeApi();
    const { user } = renderWithApp(<UserForm roles={roles} onClose={() => {}} />);
    await fill(user, textbox('Username'), 'ab');
    await waitFor(() => expect(fieldDescription(textbox('Username'))).toBe('Username must be at least 3 characters'));
    await fill(user, textbox('Email'), 'someone@clinic');
    await waitFor(() => expect(fieldDescription(textbox('Email'))).toBe('Email is not valid'));
    await fill(user, textbox('Mobile No'), 'call me');
    await waitFor(() => expect(fieldDescription(textbox('Mobile No'))).toBe('Mobile No is not valid'));

    await user.upload(pictureInput(), new File(['not a picture'], 'notes.txt', { type: 'text/plain' }));
    await waitFor(() => expect(fieldDescription(pictureButton())).toBe('Only JPG and PNG files are allowed!'));
    expect(pictureButton().textContent).not.toContain('notes.txt');
    expect(screen.queryByRole('img', { name: 'Profile picture preview' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(api.changes()).toEqual([]);
  });

  it('checks a changed password in an edit, message by message, and shows it on request', async () => {
    fakeApi();
    const existing = {
      UserId: 41,
      UserName: 'clerk0',
      FirstName: 'Ada',
      LastName: 'Lovelace',
      Email: 'clerk0@lab.test',
      MobileNo: '5550100',
      RoleId: 7,
      RoleName: 'Front desk',
      ProfilePic: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      userType: 'Web' as const,
    };
    const { user } = renderWithApp(<UserForm user={existing} roles={roles} onClose={() => {}} />);
    await fill(user, passwordInput('Password'), 'abc');
    await waitFor(() =>
      expect(fieldDescription(passwordInput('Password'))).toContain('Password must be at least 12 characters'),
    );
    await fill(user, passwordInput('Confirm Password'), 'abd');
    await waitFor(() => expect(fieldDescription(passwordInput('Confirm Password'))).toBe('Passwords do not match'));
    await fill(user, passwordInput('Password'), 'abcdefghijkl');
    await fill(user, passwordInput('Confirm Password'), 'abcdefghijkl');
    await waitFor(() => expect(fieldDescription(passwordInput('Confirm Password'))).toBe(''));
    expect(fieldDescription(passwordInput('Password'))).toBe('Leave empty to keep the current password');
    expect(passwordInput('Password').getAttribute('type')).toBe('password');
    await user.click(screen.getAllByRole('button', { name: 'Show or hide password' })[0]!);
    expect(passwordInput('Password').getAttribute('type')).toBe('text');
  });

  it('offers every role but Doctor and sends what was filled in, with no password (the user is invited)', async () => {
    const api = fakeApi({ 'POST /api/user/add': { message: 'User added successfully' } });
    const onClose = vi.fn();
    const { user } = renderWithApp(<UserForm roles={roles} onClose={onClose} />);
    await fill(user, textbox('Username'), 'clerk1');
    await user.click(roleSelect());
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'Administrator',
      'Front desk',
    ]);
    await user.click(screen.getByRole('option', { name: 'Front desk' }));
    await fill(user, textbox('First Name'), 'Grace');
    await fill(user, textbox('Last Name'), 'Hopper');
    await fill(user, textbox('Email'), 'clerk1@lab.test');
    await fill(user, textbox('Mobile No'), '+1 555 0100');
    await user.upload(
      pictureInput(),
      new File([new Uint8Array([137, 80, 78, 71])], 'grace.png', { type: 'image/png' }),
    );
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await findToast('User added successfully');
    expect(api.sentTo('POST /api/user/add').map(({ body }) => body)).toEqual([
      expect.objectContaining({
        username: 'clerk1',
        roleId: '7',
        firstname: 'Grace',
        lastname: 'Hopper',
        password: '',
        email: 'clerk1@lab.test',
        mobileNo: '+1 555 0100',
        userType: 'Web',
        profilePic: 'grace.png',
      }),
    ]);
    expect(onClose).toHaveBeenCalledOnce();
  });
});
