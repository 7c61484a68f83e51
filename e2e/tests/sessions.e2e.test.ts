import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createStaff, e2eAdmin } from '../helpers/api.ts';
import {
  baseUrl,
  expectNoSeriousA11yViolations,
  menuLink,
  newPage,
  openSignedIn,
  screenshots,
  settle,
  useBrowser,
} from '../helpers/browser.ts';
import { eventually } from '../helpers/doctor-form.ts';
import { expectToast } from '../helpers/shown.ts';

const browser = useBrowser();

const firefoxOnAndroid = 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0';

/** Signs in from another device (a phone's browser), outside the page: its token. */
async function signInElsewhere(username: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl()}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': firefoxOnAndroid },
    body: JSON.stringify({ username, password }),
  });
  if (!response.ok) throw new Error(`sign-in of ${username} failed: ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}

/** What a token's next request gets: 200 while its session lasts, 401 once it is ended. */
const statusWith = async (token: string) =>
  (await fetch(`${baseUrl()}/api/auth/sessions`, { headers: { authorization: `Bearer ${token}` } })).status;

const devices = (page: Page) => page.getByRole('list', { name: 'Signed-in devices' }).getByRole('listitem');

async function confirm(page: Page, button: string) {
  await page.getByRole('dialog').getByRole('button', { name: button, exact: true }).click();
}

describe('signed-in devices', () => {
  it('lists this device and another, ends the other, whose token is refused at once', async () => {
    const staff = await createStaff([]);
    const phone = await signInElsewhere(staff.username, staff.password);
    const page = await newPage(browser());
    await openSignedIn(page, staff.username, staff.password);
    // The Security page, beside the second factor, from the user menu.
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Security' }).click();
    await page.waitForURL('**/security');
    await page.keyboard.press('Escape');
    await eventually(() => devices(page).count()).toBe(2);
    // This device first, marked; the phone with its browser and system read from its User-Agent.
    expect(await devices(page).first().textContent()).toContain('This device');
    expect(await devices(page).nth(1).getAttribute('aria-label')).toBe('Firefox 133 on Android');
    expect(await devices(page).nth(1).textContent()).toMatch(/Signed in .+Last seen .+ from 127\.0\.0\.1/);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'signed-in-devices');

    await page.getByRole('button', { name: /^End Firefox 133 on Android/ }).click();
    await confirm(page, 'End');
    await expectToast(page, '1 session ended');
    await eventually(() => devices(page).count()).toBe(1);
    expect(await page.getByText('No other device is signed in.').isVisible()).toBe(true);
    expect(await statusWith(phone)).toBe(401);
    await screenshots(page, 'signed-in-devices-ended');

    // "Sign out all other devices" appears with another sign-in, and ends it too.
    const laptop = await signInElsewhere(staff.username, staff.password);
    await page.reload();
    await eventually(() => devices(page).count()).toBe(2);
    await page.getByRole('button', { name: 'Sign out all other devices' }).click();
    await confirm(page, 'Sign out all');
    await expectToast(page, '1 session ended');
    expect(await statusWith(laptop)).toBe(401);
    await eventually(() => devices(page).count()).toBe(1);
  });

  it("the administrator ends a user's sessions from the Users screen", async () => {
    const staff = await createStaff([]);
    const phone = await signInElsewhere(staff.username, staff.password);
    const page = await newPage(browser());
    await openSignedIn(page, e2eAdmin.username, e2eAdmin.password);
    await menuLink(page, 'Users').click();
    await page.waitForURL('**/users');
    await settle(page);
    await page.getByRole('textbox', { name: 'Search by user name or first name' }).fill(staff.username);
    const endButton = page.getByRole('button', { name: `End sessions ${staff.username}` });
    await eventually(() => endButton.isVisible()).toBe(true);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'users-end-sessions');
    await endButton.click();
    expect(await page.getByRole('dialog').textContent()).toContain(`Sign ${staff.username} out on every device?`);
    await confirm(page, 'End sessions');
    await expectToast(page, '1 session ended');
    expect(await statusWith(phone)).toBe(401);
  });
});
