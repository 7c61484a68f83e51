import { endpoints } from '@portal/contract';
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminToken, apiCall, createStaff, e2eAdmin, portalApi } from '../helpers/api.ts';
import { newPage, settle, useBrowser } from '../helpers/browser.ts';
import { selectOption } from '../helpers/forms.ts';
import { overlayShown } from '../helpers/shown.ts';

/**
 * Waiting that people feel (docs/decisions/speed.md § Waiting that people feel): reads show their
 * loading in place and never cover the app; a permission tick shows at once.
 */
const browser = useBrowser();

/**
 * The administrator already signed in (the session in localStorage, as after an earlier
 * visit), so the page's only change so far is none: any overlay seen comes from the test.
 */
async function signedInPage(path: string): Promise<Page> {
  const session = await portalApi().call(endpoints.login, {
    body: { username: e2eAdmin.username, password: e2eAdmin.password },
  });
  const page = await newPage(browser());
  await page.context().addInitScript(
    (values) => {
      for (const [key, value] of Object.entries(values)) localStorage.setItem(key, value);
    },
    Object.fromEntries(Object.entries(session).map(([key, value]) => [key, value === null ? '' : String(value)])),
  );
  await page.goto(path);
  return page;
}

const accessBox = (page: Page, pageName: string) =>
  page.getByRole('checkbox', { name: `Has access to ${pageName}`, exact: true });

describe('Waiting that people feel', () => {
  it('moving between screens shows each list loading in place and never the full-screen overlay', async () => {
    const page = await signedInPage('/dashboard');
    await settle(page);
    // Hold the users list back, so its loading state is on screen long enough to be seen.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    // The list's address carries its page and search: matched by path alone. Held from here on,
    // once the dashboard has settled: the administrator's e-mail banner reads the list too.
    await page.route(
      (url) => url.pathname === '/api/user/get_users_list',
      async (route: Route) => {
        await held;
        await route.continue();
      },
    );
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.getByRole('link', { name: 'Users' }).click();
    await page.waitForURL('**/users');
    // The table shows its own 'Loading...' and is marked busy; nothing covers the screen.
    const table = page.getByRole('table');
    const tableLoading = page.getByRole('status').filter({ hasText: 'Loading...' });
    await expect.poll(() => tableLoading.isVisible()).toBe(true);
    expect(await table.getAttribute('aria-busy')).toBe('true');
    expect(await page.locator('.mantine-LoadingOverlay-root').count()).toBe(0);
    release();
    await expect.poll(() => tableLoading.count()).toBe(0);
    expect(await table.getAttribute('aria-busy')).toBe('false');
    for (const name of ['Roles', 'Doctors', 'Role Permissions', 'Dashboard']) {
      await menu.getByRole('link', { name }).click();
      await settle(page);
    }
    expect(await overlayShown(page, 'Loading...')).toBe(false);
  });

  it('a permission tick shows in its box at once, before the server has answered, without the overlay', async () => {
    const staff = await createStaff([]);
    const page = await signedInPage('/rolepermissions');
    await settle(page);
    await selectOption(page, 'Role', staff.roleName);
    await settle(page);
    await expect.poll(() => accessBox(page, 'Doctors').isChecked()).toBe(false);
    // The grant waits at the network until the box has been seen ticked.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let isAnswered = false;
    await page.route('**/api/permission/add/**', async (route: Route) => {
      await held;
      await route.continue();
      isAnswered = true;
    });
    await accessBox(page, 'Doctors').click();
    await expect.poll(() => accessBox(page, 'Doctors').isChecked()).toBe(true);
    expect(isAnswered).toBe(false);
    expect(await page.locator('.mantine-LoadingOverlay-root').count()).toBe(0);
    release();
    await settle(page);
    const rows = await apiCall<{ PageName: string; HasAccess: boolean }[]>(
      'GET',
      `/permission/get_role_permissions/${staff.roleId}`,
      { token: await adminToken() },
    );
    expect(rows.filter((row) => row.HasAccess).map((row) => row.PageName)).toEqual(['Doctors']);
    expect(await overlayShown(page, 'Loading...')).toBe(false);
  });

  it('a refused permission tick goes back in its box', async () => {
    const staff = await createStaff([]);
    const page = await signedInPage('/rolepermissions');
    await settle(page);
    await selectOption(page, 'Role', staff.roleName);
    await settle(page);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/permission/add/**', async (route: Route) => {
      await held;
      await route.fulfill({ status: 403, json: { message: 'refused' } });
    });
    await accessBox(page, 'Users').click();
    // Shown at once, then taken back when the server refuses.
    await expect.poll(() => accessBox(page, 'Users').isChecked()).toBe(true);
    release();
    await expect.poll(() => accessBox(page, 'Users').isChecked()).toBe(false);
  });
});
