import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createApiClient, endpoints } from '@portal/contract';
import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, e2eAdmin } from '../helpers/api.ts';
import {
  expectNoSeriousA11yViolations,
  newPage,
  openSignedIn,
  screenshots,
  settle,
  useBrowser,
} from '../helpers/browser.ts';
import { startPortal, type PortalProcess } from '../helpers/portal-process.ts';
import { pgliteTemplate, unpackPgliteTemplate } from '../../apps/server/test/helpers/pglite-template.ts';
import { toastShown } from '../helpers/shown.ts';
import { stopStartedProcesses } from '../helpers/started-processes.ts';

/**
 * docs/quality/sign-in.md, Second factor: the second factor as a person meets it. Passkeys need a domain
 * name as their relying party (an IP address is refused by the browser), so this file runs
 * its own portal at http://localhost:<port>, with PUBLIC_URL to match. TOTP codes are
 * computed here as an authenticator app computes them; passkeys are made and used by
 * Chromium's virtual authenticator (CDP WebAuthn domain).
 */

const browser = useBrowser();
let portal: PortalProcess;
let dataDir: string;
let on: { api: ReturnType<typeof createApiClient>; adminToken: string };

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-e2e-mfa-'));
  // The suite's seeded database, as the suite's portals have: a first start seeds the world's cities.
  await unpackPgliteTemplate(await pgliteTemplate(), dataDir);
  portal = await startPortal(
    {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      ADMIN_USERNAME: e2eAdmin.username,
      ADMIN_PASSWORD: e2eAdmin.password,
      // As the suite's portal: the tests sign in more often than a person would in a minute.
      LOGIN_ATTEMPTS_PER_ADDRESS: '10000',
    },
    { hostName: 'localhost', quiet: true },
  );
  const api = createApiClient({ baseUrl: portal.baseUrl });
  const answer = await api.call(endpoints.login, { body: e2eAdmin });
  if ('secondFactor' in answer) throw new Error('the administrator has no second factor here');
  on = { api, adminToken: answer.token };
});
afterAll(async () => {
  await portal?.stop();
  // Also what a failed or timed-out test was still starting (e2e/helpers/started-processes.ts).
  await stopStartedProcesses();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const codeFor = (secret: string, stepsAhead = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

async function enterPassword(page: Page, username: string, password: string) {
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Username' }).fill(username);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

async function expectDashboard(page: Page) {
  await page.waitForURL('**/dashboard');
  await expect.poll(() => toastShown(page, 'Login successful!')).toBe(true);
}

/** A platform authenticator that holds passkeys and verifies its user (Chromium's WebAuthn domain). */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  return { cdp, authenticatorId };
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

/**
 * The dialog the Security screen opens when the server wants a fresh proof: a wrong password
 * is refused in place, the right one lets the change go on.
 */
async function confirmWithPassword(page: Page, password: string, { screenshot = false } = {}) {
  const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' });
  await expect.poll(() => dialog.isVisible()).toBe(true);
  const field = dialog.getByLabel('Your password');
  await field.fill('not-my-password');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect.poll(() => dialog.getByText('That password or code is not right.').isVisible()).toBe(true);
  if (screenshot) {
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'second-factor-confirm');
  }
  await field.fill(password);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect.poll(() => dialog.isVisible()).toBe(false);
}

describe('Second factor', () => {
  it('a role that requires one: enrol an authenticator app at sign-in, then sign in with a code or a recovery code', async () => {
    const staff = await createStaff([1], on);
    await on.api.call(
      endpoints.roleSecondFactor,
      { params: { id: staff.roleId }, body: { required: true } },
      { token: on.adminToken },
    );
    const page = await newPage(browser(), 1280, portal.baseUrl);

    await enterPassword(page, staff.username, staff.password);
    await expect.poll(() => page.getByRole('heading', { name: 'Set up a second factor' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Authenticator app' }).click();
    const key = page.getByText(/Or type this key/).locator('code');
    await expect.poll(() => key.isVisible()).toBe(true);
    await expect
      .poll(() => page.getByRole('img', { name: 'QR code for your authenticator app' }).isVisible())
      .toBe(true);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'second-factor-enrol');
    const secret = (await key.textContent())!.trim();
    await page.getByRole('textbox', { name: 'Code from the app' }).fill(await codeFor(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();

    const list = page.getByRole('list', { name: 'Recovery codes' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(10);
    const recoveryCodes = await list.getByRole('listitem').allTextContents();
    await settle(page);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'second-factor-recovery-codes');
    await page.getByRole('button', { name: 'I saved my codes' }).click();
    await expectDashboard(page);
    await settle(page);

    // The next sign-in asks for a code: the current step's was used to enrol, so the next one.
    await signOut(page);
    await enterPassword(page, staff.username, staff.password);
    const codeBox = page.getByRole('textbox', { name: 'Code from your authenticator app' });
    await expect.poll(() => codeBox.isVisible()).toBe(true);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'second-factor-step');
    await codeBox.fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => toastShown(page, /not right/)).toBe(true);
    await codeBox.fill(await codeFor(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectDashboard(page);
    await settle(page);

    await signOut(page);
    await enterPassword(page, staff.username, staff.password);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByRole('textbox', { name: 'Recovery code' }).fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectDashboard(page);
  });

  it('a passkey: added on the Security screen, signing in with it alone and as the second step, removed', async () => {
    const staff = await createStaff([1], on);
    const page = await newPage(browser(), 1280, portal.baseUrl);
    const { cdp, authenticatorId } = await addVirtualAuthenticator(page);

    // No factor and no requirement: the password alone signs in, as before.
    await enterPassword(page, staff.username, staff.password);
    await expectDashboard(page);
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Security' }).click();
    await page.waitForURL('**/security');
    await page.getByRole('textbox', { name: 'Passkey name' }).fill('Test laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    // A session alone changes no factor: the password first, then the change goes on by itself.
    await confirmWithPassword(page, staff.password, { screenshot: true });
    await expect.poll(() => toastShown(page, 'Second factor added')).toBe(true);
    await expect.poll(() => page.getByRole('list', { name: 'Recovery codes' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'I saved my codes' }).click();
    await expect.poll(() => page.getByText('Test laptop').isVisible()).toBe(true);
    await settle(page);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'second-factor-security');
    // The authenticator holds it as a discoverable credential, for signing in without a username.
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials.map((credential) => credential.isResidentCredential)).toEqual([true]);

    await signOut(page);
    await page.getByRole('button', { name: 'Continue with a passkey' }).click();
    await expectDashboard(page);
    await settle(page);

    await signOut(page);
    await enterPassword(page, staff.username, staff.password);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await expectDashboard(page);

    // Removed again: the last factor of a role that requires none takes the recovery codes with it.
    await page.goto('/security');
    await page.getByRole('button', { name: 'Remove passkey Test laptop' }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    // A new session: its own proof.
    await confirmWithPassword(page, staff.password);
    await expect.poll(() => toastShown(page, 'Second factor removed')).toBe(true);
    await expect.poll(() => page.getByText('Made when you add your first factor.').isVisible()).toBe(true);
    expect(await page.getByText('Test laptop').count()).toBe(0);
  });

  it('the administrator requires a second factor of a role from the Roles screen', async () => {
    const staff = await createStaff([1], on);
    const page = await newPage(browser(), 1280, portal.baseUrl);
    await openSignedIn(page, e2eAdmin.username, e2eAdmin.password, '/roles');
    const toggle = page.getByRole('switch', { name: `Require a second factor for ${staff.roleName}` });
    await expect.poll(() => toggle.isVisible()).toBe(true);
    expect(await toggle.isChecked()).toBe(false);
    await settle(page);
    await screenshots(page, 'second-factor-roles');
    await toggle.click();
    await expect.poll(() => toastShown(page, 'A second factor is now required for this role')).toBe(true);
    await expect.poll(() => toggle.isChecked()).toBe(true);
    const answer = await on.api.call(endpoints.login, { body: { username: staff.username, password: staff.password } });
    expect(answer).toMatchObject({ secondFactor: 'enrol' });
  });

  it('a role that requires one: enrol a passkey at sign-in, which finishes the sign-in', async () => {
    const staff = await createStaff([1], on);
    await on.api.call(
      endpoints.roleSecondFactor,
      { params: { id: staff.roleId }, body: { required: true } },
      { token: on.adminToken },
    );
    const page = await newPage(browser(), 1280, portal.baseUrl);
    await addVirtualAuthenticator(page);
    await enterPassword(page, staff.username, staff.password);
    await expect.poll(() => page.getByRole('heading', { name: 'Set up a second factor' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Passkey', exact: true }).click();
    const list = page.getByRole('list', { name: 'Recovery codes' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(10);
    await page.getByRole('button', { name: 'I saved my codes' }).click();
    await expectDashboard(page);
  });

  it('the Users page resets a user’s second factor after a confirmation: the password alone signs them in again', async () => {
    const staff = await createStaff([1], on);
    const signIn = await on.api.call(endpoints.login, { body: { username: staff.username, password: staff.password } });
    if ('secondFactor' in signIn) throw new Error('no factor yet');
    const token = { token: signIn.token };
    await on.api.call(endpoints.reauthenticate, { body: { password: staff.password } }, token);
    const { secret } = await on.api.call(endpoints.totpEnrolStart, {}, token);
    await on.api.call(endpoints.totpEnrolConfirm, { body: { code: await codeFor(secret) } }, token);
    expect(await on.api.call(endpoints.login, { body: staff })).toMatchObject({ secondFactor: 'verify' });

    const page = await newPage(browser(), 1280, portal.baseUrl);
    await openSignedIn(page, e2eAdmin.username, e2eAdmin.password, '/users');
    await page.getByRole('textbox', { name: 'Search by user name or first name' }).fill(staff.username);
    const reset = page.getByRole('button', { name: `Reset second factor ${staff.username}` });
    await expect.poll(() => reset.isVisible()).toBe(true);
    await reset.click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByText(/Reset the second factor of/).isVisible()).toBe(true);
    await settle(page);
    await screenshots(page, 'users-reset-second-factor');
    await dialog.getByRole('button', { name: 'Reset second factor' }).click();
    await expect.poll(() => toastShown(page, /Second factor reset/)).toBe(true);
    expect(await on.api.call(endpoints.login, { body: staff })).toMatchObject({ token: expect.any(String) });
  });
});
