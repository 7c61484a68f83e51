// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, json } from '../../../testing/fake-api.ts';
import { fieldDescription, fill, findToast, renderWithApp } from '../../../testing/render.tsx';
import { LoginForm } from './login-form.tsx';

const username = () => screen.getByRole('textbox', { name: 'Username' });
const password = () => screen.getByLabelText(/^Password/);

describe('Login form', () => {
  it('shows both required messages under their fields on Sign In, and sends nothing', async () => {
    const api = fakeApi();
    const { user } = renderWithApp(<LoginForm />);
    expect(screen.getByText('Sign in to start your session')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(fieldDescription(username())).toBe('Username is required'));
    expect(fieldDescription(password())).toBe('Password is required');
    expect(username().getAttribute('aria-invalid')).toBe('true');
    expect(api.sent).toEqual([]);
  });

  it('checks a field as it changes, and only that field', async () => {
    const api = fakeApi();
    const { user } = renderWithApp(<LoginForm />);
    await fill(user, username(), 'admin');
    await fill(user, username(), '   ');
    await waitFor(() => expect(fieldDescription(username())).toBe('Username is required'));
    expect(fieldDescription(password())).toBe('');
    expect(screen.queryByText('Password is required')).toBeNull();
    await fill(user, username(), 'admin');
    await waitFor(() => expect(fieldDescription(username())).toBe(''));
    expect(api.sent).toEqual([]);
  });

  it('sends the username and password typed, and shows the server refusal', async () => {
    const api = fakeApi({ 'POST /api/auth/login': () => json({ message: 'Invalid username or password' }, 401) });
    const { user } = renderWithApp(<LoginForm />);
    await fill(user, username(), 'admin');
    await fill(user, password(), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await findToast('Invalid username or password');
    expect(api.sent.map(({ body }) => body)).toEqual([{ username: 'admin', password: 'wrong-password' }]);
  });
});
