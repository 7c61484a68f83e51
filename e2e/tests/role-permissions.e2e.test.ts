import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminToken, apiCall, createStaff, e2eAdmin } from '../helpers/api.ts';
import {
  expectNoSeriousA11yViolations,
  useBrowser,
  newPage,
  screenshots,
  settle,
  openSignedIn,
  menuLink,
} from '../helpers/browser.ts';
import { selectOption } from '../helpers/forms.ts';

const browser = useBrowser();

async function openRolePermissions(): Promise<Page> {
  const page = await newPage(browser());
  await openSignedIn(page, e2eAdmin.username, e2eAdmin.password);
  await menuLink(page, 'Role Permissions').click();
  await page.waitForURL('**/rolepermissions');
  await settle(page);
  return page;
}

const accessBox = (page: Page, pageName: string) =>
  page.getByRole('checkbox', { name: `Has access to ${pageName}`, exact: true });

async function grantedPages(roleId: number): Promise<string[]> {
  const rows = await apiCall<{ PageName: string; HasAccess: boolean }[]>(
    'GET',
    `/permission/get_role_permissions/${roleId}`,
    {
      token: await adminToken(),
    },
  );
  return rows.filter((row) => row.HasAccess).map((row) => row.PageName);
}

describe('Role Permissions screen', () => {
  it("shows 'No record found' until a role is chosen, and is accessible", async () => {
    const page = await openRolePermissions();
    await expect.poll(() => page.getByRole('heading', { name: 'Role Permissions' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('No record found').isVisible()).toBe(true);
    const header = (await page.getByRole('row').first().textContent()) ?? '';
    for (const column of ['S.#', 'Page Name', 'Has Access']) expect(header).toContain(column);
    await expectNoSeriousA11yViolations(page);
  });

  it('grants a role two pages; its user then sees only those in the menu and is refused elsewhere', async () => {
    const staff = await createStaff([]);
    const page = await openRolePermissions();
    await selectOption(page, 'Role', staff.roleName);
    await settle(page);
    for (const name of ['Dashboard', 'Roles', 'Role Permissions', 'Users', 'Doctors', 'Add Case']) {
      await expect.poll(() => accessBox(page, name).isChecked()).toBe(false);
    }
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'role-permissions');

    await accessBox(page, 'Dashboard').click();
    await expect.poll(() => accessBox(page, 'Dashboard').isChecked()).toBe(true);
    await accessBox(page, 'Doctors').click();
    await expect.poll(() => accessBox(page, 'Doctors').isChecked()).toBe(true);
    // The box changes at once (docs/decisions/speed.md § Waiting that people feel); a grant taken back is revoked there too.
    await accessBox(page, 'Roles').click();
    await expect.poll(() => accessBox(page, 'Roles').isChecked()).toBe(true);
    await accessBox(page, 'Roles').click();
    await expect.poll(() => accessBox(page, 'Roles').isChecked()).toBe(false);
    await settle(page);
    expect((await grantedPages(staff.roleId)).sort()).toEqual(['Dashboard', 'Doctors']);

    const staffPage = await newPage(browser());
    await openSignedIn(staffPage, staff.username, staff.password);
    await settle(staffPage);
    const menu = staffPage.getByRole('navigation', { name: 'Main menu' });
    // Without the badges other tests may put beside Dashboard (unread messages), Inbox and Doctors (waiting doctors).
    const items = async () =>
      (await menu.getByRole('link').allTextContents()).map((text) =>
        text.replace(/\d+ (unread|waiting for activation|waiting for you)$/, ''),
      );
    // The Inbox comes with the Dashboard (docs/decisions/messages.md § Inbox).
    await expect.poll(items).toEqual(['Dashboard', 'Inbox', 'Doctors']);
    await staffPage.goto('/users');
    await expect.poll(() => staffPage.getByText('You do not have access to this page.').isVisible()).toBe(true);
    await staffPage.goto('/rolepermissions');
    await expect.poll(() => staffPage.getByText('You do not have access to this page.').isVisible()).toBe(true);
  });

  it('leaves the box as it was when the server refuses the change', async () => {
    const staff = await createStaff([]);
    const page = await openRolePermissions();
    await selectOption(page, 'Role', staff.roleName);
    await settle(page);
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.route('**/api/permission/add/**', (route) => route.fulfill({ status: 500, json: { message: 'boom' } }));
    await accessBox(page, 'Users').click();
    await settle(page);
    // Ticked at once, then taken back when the server refuses.
    await expect.poll(() => accessBox(page, 'Users').isChecked()).toBe(false);
    await expect.poll(() => errors.some((text) => text.includes('Could not change page access'))).toBe(true);
    expect(await page.getByRole('alert').filter({ hasText: 'boom' }).count()).toBe(0);
  });
});
