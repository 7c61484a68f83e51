// @vitest-environment happy-dom
import { resetMessages } from '@portal/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../../testing/fake-api.ts';
import { fieldDescription, fill, findToast, inputLabelled, renderWithApp } from '../../../testing/render.tsx';
import { ResetPasswordForm } from './reset-password-form.tsx';

const passwordInput = inputLabelled;
const resetButton = () => screen.getByRole('button', { name: 'Reset Password' });

describe('Reset password form', () => {
  it('validates both fields under them and sends nothing while a message stands', async () => {
    const api = fakeApi();
    const { user } = renderWithApp(<ResetPasswordForm token="a-token" />);
    await user.click(resetButton());
    await waitFor(() => expect(fieldDescription(passwordInput('New Password'))).toContain('Password is required'));
    expect(fieldDescription(passwordInput('Confirm Password'))).toContain('Confirm Password is required');
    await fill(user, passwordInput('New Password'), 'abc');
    await waitFor(() =>
      expect(fieldDescription(passwordInput('New Password'))).toContain('Password must be at least 12 characters'),
    );
    await fill(user, passwordInput('New Password'), 'brand-new-pass');
    await fill(user, passwordInput('Confirm Password'), 'brand-new-pasX');
    await waitFor(() =>
      expect(fieldDescription(passwordInput('Confirm Password'))).toContain('Passwords do not match'),
    );
    expect(fieldDescription(passwordInput('New Password'))).toBe('');
    await user.click(resetButton());
    expect(api.sent).toEqual([]);

    // The show/hide toggle reveals what was typed.
    expect(passwordInput('New Password').getAttribute('type')).toBe('password');
    await user.click(screen.getAllByRole('button', { name: 'Show or hide password' })[0]!);
    expect(passwordInput('New Password').getAttribute('type')).toBe('text');
  });

  it("sends the link's token with the new password", async () => {
    const api = fakeApi({
      'POST /api/doctor/reset_password': { success: true, message: resetMessages.resetSucceeded },
    });
    const { user } = renderWithApp(<ResetPasswordForm token="a-token" />);
    await fill(user, passwordInput('New Password'), 'brand-new-pass');
    await fill(user, passwordInput('Confirm Password'), 'brand-new-pass');
    await user.click(resetButton());
    await findToast(resetMessages.resetSucceeded);
    expect(api.changes().map(({ body }) => body)).toEqual([{ token: 'a-token', newPassword: 'brand-new-pass' }]);
  });
});
