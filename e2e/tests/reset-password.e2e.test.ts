import { forgotPasswordMessages, passwordMessages, resetMessages } from '@portal/contract';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminToken, apiCall, createActiveDoctor, passwordLinkMailedTo } from '../helpers/api.ts';
import { expectNoSeriousA11yViolations, useBrowser, newPage, screenshots, signIn } from '../helpers/browser.ts';
import { eventually, textbox } from '../helpers/doctor-form.ts';
import { fieldDescription } from '../helpers/forms.ts';
import { toastShown } from '../helpers/shown.ts';

const browser = useBrowser();

/** A fresh reset link for a new doctor, read from the mail it goes to (path and query only). */
async function resetLinkForNewDoctor() {
  const doctor = await createActiveDoctor();
  await apiCall('POST', `/doctor/request_password_reset/${doctor.doctorId}`, { token: await adminToken() });
  const url = new URL(await passwordLinkMailedTo(`${doctor.username}@clinic.test`));
  return { doctor, path: `${url.pathname}${url.search}`, token: url.searchParams.get('token')! };
}

async function expectToastAndSignInScreen(page: Page, toast: string) {
  await eventually(() => toastShown(page, toast)).toBe(true);
  await page.waitForURL((url) => url.pathname === '/');
}

// The form's messages (both fields required, too short, not matching), the show/hide toggle
// and what it sends are checked without a browser:
// apps/web/src/features/password-reset/components/reset-password-form.test.tsx.
describe('Reset password screen', () => {
  it('without a token says the link is invalid and goes to sign in', async () => {
    const page = await newPage(browser());
    await page.goto('/reset-password');
    await expectToastAndSignInScreen(page, 'Invalid reset link');
  });

  it('verifies first, and a garbage token is refused and sent to sign in', async () => {
    const page = await newPage(browser());
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/doctor/verify_token/**', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/reset-password?token=not-a-real-token');
    await eventually(() => page.getByText('Verifying reset link...').isVisible()).toBe(true);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'reset-password-verifying');
    release();
    await expectToastAndSignInScreen(page, 'Invalid or expired link');
  });

  it('sets the password, and the link works only once', async () => {
    const { doctor, path } = await resetLinkForNewDoctor();
    const page = await newPage(browser());
    await page.goto(path);
    await eventually(() => textbox(page, 'New Password').isVisible()).toBe(true);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'reset-password');

    // Both messages shown, for the screenshot; which message shows when is checked without a browser.
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await eventually(() => fieldDescription(textbox(page, 'Confirm Password'))).toContain(
      'Confirm Password is required',
    );
    await screenshots(page, 'reset-password-errors');

    await textbox(page, 'New Password').fill('brand-new-pass');
    await textbox(page, 'Confirm Password').fill('brand-new-pass');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expectToastAndSignInScreen(page, resetMessages.resetSucceeded);
    await signIn(page, doctor.username, 'brand-new-pass');

    const again = await newPage(browser());
    await again.goto(path);
    await expectToastAndSignInScreen(again, 'Invalid or expired link');
  });

  it('Forgot password? on the sign-in page mails a link that sets a new password; the answer names no account', async () => {
    const doctor = await createActiveDoctor();
    const page = await newPage(browser());
    await page.goto('/');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    const name = page.getByRole('textbox', { name: 'Username or e-mail' });
    await eventually(() => name.isVisible()).toBe(true);
    await name.fill(`${doctor.username}@clinic.test`);
    await page.getByRole('button', { name: 'Send link' }).click();
    await eventually(() =>
      page.getByRole('status').filter({ hasText: forgotPasswordMessages.mailed }).isVisible(),
    ).toBe(true);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'forgot-password');

    const url = new URL(await passwordLinkMailedTo(`${doctor.username}@clinic.test`));
    await page.goto(`${url.pathname}${url.search}`);
    await eventually(() => textbox(page, 'New Password').isVisible()).toBe(true);
    await textbox(page, 'New Password').fill('remembered-at-last');
    await textbox(page, 'Confirm Password').fill('remembered-at-last');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expectToastAndSignInScreen(page, resetMessages.resetSucceeded);
    await signIn(page, doctor.username, 'remembered-at-last');
  });

  it("says 'Unable to reset password' when the link was used meanwhile", async () => {
    const { path, token } = await resetLinkForNewDoctor();
    const page = await newPage(browser());
    await page.goto(path);
    await eventually(() => textbox(page, 'New Password').isVisible()).toBe(true);
    await apiCall('POST', '/doctor/reset_password', { json: { token, newPassword: 'used-elsewhere' } });
    await textbox(page, 'New Password').fill('too-late-pass');
    await textbox(page, 'Confirm Password').fill('too-late-pass');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await eventually(() => toastShown(page, 'Unable to reset password')).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/reset-password');
  });

  it("puts the server's common-password message under New Password, and the link still works", async () => {
    const { doctor, path } = await resetLinkForNewDoctor();
    const page = await newPage(browser());
    await page.goto(path);
    await eventually(() => textbox(page, 'New Password').isVisible()).toBe(true);
    for (const label of ['New Password', 'Confirm Password']) await textbox(page, label).fill('Password2024!');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await eventually(() => fieldDescription(textbox(page, 'New Password'))).toContain(passwordMessages.common);
    for (const label of ['New Password', 'Confirm Password']) await textbox(page, label).fill('a-fine-new-passphrase');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expectToastAndSignInScreen(page, resetMessages.resetSucceeded);
    await signIn(page, doctor.username, 'a-fine-new-passphrase');
  });
});
