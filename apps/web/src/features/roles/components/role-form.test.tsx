// @vitest-environment happy-dom
import { ADMIN_ROLE_ID, type Role } from '@portal/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, json } from '../../../testing/fake-api.ts';
import { fieldDescription, fill, findToast, renderWithApp } from '../../../testing/render.tsx';
import { RoleForm } from './role-form.tsx';

const roleName = () => screen.getByRole('textbox', { name: /^Role Name/ });
const description = () => screen.getByRole('textbox', { name: 'Description' });
const submit = () => screen.getByRole('button', { name: 'Submit' });

const administrator: Role = {
  RoleId: ADMIN_ROLE_ID,
  RoleName: 'Administrator',
  Description: 'All pages',
  RequiresSecondFactor: false,
};

describe('Role form', () => {
  it('requires a role name, on change and on submit, and sends nothing meanwhile', async () => {
    const api = fakeApi();
    const { user } = renderWithApp(<RoleForm onClose={() => {}} />);
    expect(screen.getByRole('heading', { name: 'Add Role' })).toBeTruthy();
    await user.click(submit());
    await waitFor(() => expect(fieldDescription(roleName())).toBe('Role Name is required'));
    await fill(user, roleName(), 'Lab');
    await waitFor(() => expect(fieldDescription(roleName())).toBe(''));
    await fill(user, roleName(), '   ');
    await waitFor(() => expect(fieldDescription(roleName())).toBe('Role Name is required'));
    await user.click(submit());
    expect(api.sent).toEqual([]);
  });

  it('sends the name and description, says so and closes', async () => {
    const api = fakeApi({ 'POST /api/role/add': { message: 'Role added successfully', RoleId: 42 } });
    const onClose = vi.fn();
    const { user } = renderWithApp(<RoleForm onClose={onClose} />);
    await fill(user, roleName(), 'Lab technicians');
    await fill(user, description(), 'Prints aligners');
    await user.click(submit());
    await findToast('Role added successfully');
    expect(api.sentTo('POST /api/role/add').map(({ body }) => body)).toEqual([
      { roleName: 'Lab technicians', description: 'Prints aligners' },
    ]);
    expect(onClose).toHaveBeenCalledOnce();
  });

  it("puts the server's field message under its field and stays open", async () => {
    fakeApi({
      'POST /api/role/add': () =>
        json(
          {
            message: 'A role with this name already exists',
            fieldErrors: { roleName: 'A role with this name already exists' },
          },
          409,
        ),
    });
    const onClose = vi.fn();
    const { user } = renderWithApp(<RoleForm onClose={onClose} />);
    await fill(user, roleName(), 'Administrator');
    await user.click(submit());
    await waitFor(() => expect(fieldDescription(roleName())).toBe('A role with this name already exists'));
    expect(onClose).not.toHaveBeenCalled();
  });

  it('edits a role from its values; a built-in role keeps its name', async () => {
    const api = fakeApi({ 'PUT /api/role/edit/-1': { message: 'Role updated successfully' } });
    const { user } = renderWithApp(<RoleForm role={administrator} onClose={() => {}} />);
    expect(screen.getByRole('heading', { name: 'Edit Role' })).toBeTruthy();
    expect((roleName() as HTMLInputElement).value).toBe('Administrator');
    expect((roleName() as HTMLInputElement).disabled).toBe(true);
    expect(fieldDescription(roleName())).toBe('This role is built in and cannot be renamed');
    expect((description() as HTMLTextAreaElement).value).toBe('All pages');
    await fill(user, description(), 'Every page');
    await user.click(submit());
    await findToast('Role updated successfully');
    expect(api.changes().map(({ body }) => body)).toEqual([{ roleName: 'Administrator', description: 'Every page' }]);
  });
});
