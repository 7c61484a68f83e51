import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiLogin, createActiveDoctor, mailsTo } from '../helpers/api.ts';
import { expectNoSeriousA11yViolations, useBrowser, newPage, screenshots, openSignedIn } from '../helpers/browser.ts';
import { combobox, eventually, textbox } from '../helpers/doctor-form.ts';
import { chooseFile, fieldDescription } from '../helpers/forms.ts';
import { pictureFile } from '../helpers/pictures.ts';
import { toastShown } from '../helpers/shown.ts';

const browser = useBrowser();

const storedProfilePic = (page: Page) => page.evaluate(() => localStorage.getItem('profilePic'));
const preview = (page: Page) => page.getByRole('img', { name: 'Profile picture preview' });

async function openProfile(page: Page) {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Profile' }).click();
  await page.waitForURL('**/profile');
  // The user menu stays open after the click; a person closes it.
  await page.keyboard.press('Escape');
  await eventually(() => page.getByRole('menu').count()).toBe(0);
  await eventually(() => textbox(page, 'First Name').inputValue()).toBe('Ada');
}

// The form's own rules on the profile (username disabled, password locked until Change
// Password and then required, no role or status, Current Password asked only once the password
// or the e-mail is about to change) are checked without a browser:
// apps/web/src/features/doctors/components/doctor-form.test.tsx.
describe('Profile screen', () => {
  it("shows the doctor's own record", async () => {
    const doctor = await createActiveDoctor();
    const page = await newPage(browser());
    await openSignedIn(page, doctor.username, doctor.password);
    await openProfile(page);

    expect(await textbox(page, 'Username').inputValue()).toBe(doctor.username);
    // The country list arrives after the record.
    await eventually(() => combobox(page, 'Location').inputValue()).not.toBe('');
    expect(await combobox(page, 'Gender').inputValue()).toBe('Female');
    await eventually(() => page.getByRole('table', { name: 'Clinics' }).textContent()).toContain('Smile Clinic');
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'profile');
  });

  it('changes the mobile number and picture, then removes the picture', async () => {
    const doctor = await createActiveDoctor();
    const page = await newPage(browser());
    await openSignedIn(page, doctor.username, doctor.password);
    await openProfile(page);
    expect(await storedProfilePic(page)).toBe('');

    await textbox(page, 'Mobile No').fill('+1 555 0199');
    await chooseFile(
      page,
      page.getByRole('button', { name: 'Profile Picture' }),
      await pictureFile('portrait.jpg', '#e76f51', 'jpeg'),
    );
    await eventually(() => preview(page).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Submit' }).click();
    await eventually(() => toastShown(page, 'Doctor updated successfully')).toBe(true);
    // The session's picture follows, so the top bar shows the new avatar.
    await eventually(() => storedProfilePic(page)).toMatch(/\.jpe?g$/);
    await eventually(() => page.getByRole('button', { name: 'User menu' }).locator('img').getAttribute('src')).toMatch(
      /_32x32\.jpe?g$/,
    );

    await page.reload();
    await eventually(() => textbox(page, 'Mobile No').inputValue()).toBe('+1 555 0199');
    await eventually(() => preview(page).isVisible()).toBe(true);
    await screenshots(page, 'profile-with-picture');

    await page.getByRole('button', { name: 'Remove Picture' }).click();
    expect(await preview(page).count()).toBe(0);
    await page.getByRole('button', { name: 'Submit' }).click();
    await eventually(() => storedProfilePic(page)).toBe('');
    await page.reload();
    await eventually(() => textbox(page, 'Mobile No').inputValue()).toBe('+1 555 0199');
    expect(await preview(page).count()).toBe(0);
  });

  it('changes the password only with the current one, then signs out and tells the address', async () => {
    const doctor = await createActiveDoctor({ lastname: 'Currentpass' });
    const page = await newPage(browser());
    await openSignedIn(page, doctor.username, doctor.password);
    await openProfile(page);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await eventually(() => textbox(page, 'Current Password').count()).toBe(1);

    await textbox(page, 'Password').fill('profile-new-pass');
    await textbox(page, 'Confirm Password').fill('profile-new-pass');
    await page.getByRole('button', { name: 'Submit' }).click();
    await eventually(() => fieldDescription(textbox(page, 'Current Password'))).toContain(
      'Enter your current password to change your password or e-mail',
    );
    await textbox(page, 'Current Password').fill('not-my-password');
    await page.getByRole('button', { name: 'Submit' }).click();
    await eventually(() => fieldDescription(textbox(page, 'Current Password'))).toContain(
      'Current password is not correct',
    );
    await expect(apiLogin(doctor.username, 'profile-new-pass')).rejects.toThrow();

    await textbox(page, 'Current Password').fill(doctor.password);
    await page.getByRole('button', { name: 'Submit' }).click();
    await eventually(() => toastShown(page, 'Password changed. Please sign in with your new password.')).toBe(true);
    await eventually(() => new URL(page.url()).pathname).toBe('/');
    expect(await apiLogin(doctor.username, 'profile-new-pass')).toBeTruthy();
    await eventually(async () => (await mailsTo(`${doctor.username}@clinic.test`)).join('\n')).toContain(
      'password was changed',
    );
  });

  it('asks for the current password when the e-mail changes', async () => {
    const doctor = await createActiveDoctor({ lastname: 'Currentmail' });
    const page = await newPage(browser());
    await openSignedIn(page, doctor.username, doctor.password);
    await openProfile(page);
    await textbox(page, 'Email').fill(`moved.${doctor.username}@clinic.test`);
    await eventually(() => textbox(page, 'Current Password').count()).toBe(1);
    await textbox(page, 'Current Password').fill(doctor.password);
    await page.getByRole('button', { name: 'Submit' }).click();
    await eventually(() => toastShown(page, 'Doctor updated successfully')).toBe(true);
  });
});
