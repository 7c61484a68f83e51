import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createStaff, e2eAdmin, uniqueName } from '../helpers/api.ts';
import {
  expectNoSeriousA11yViolations,
  useBrowser,
  newPage,
  screenshots,
  settle,
  openSignedIn,
  menuLink,
} from '../helpers/browser.ts';
import { fieldDescription } from '../helpers/forms.ts';
import { isShown } from '../helpers/shown.ts';

const browser = useBrowser();

async function openRoles(): Promise<Page> {
  const page = await newPage(browser());
  await openSignedIn(page, e2eAdmin.username, e2eAdmin.password);
  await menuLink(page, 'Roles').click();
  await page.waitForURL('**/roles');
  await settle(page);
  return page;
}

const roleRow = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

/** Searches for one role: other test files add roles too, and the list shows ten a page. */
const searchRoles = (page: Page, text: string) =>
  page.getByRole('textbox', { name: 'Search by role name or description' }).fill(text);

// The form's own rules (Role Name required on change and on submit, nothing sent meanwhile,
// what it sends) are checked without a browser: apps/web/src/features/roles/components/role-form.test.tsx.
describe('Roles screen', () => {
  it('lists the roles with search, and is accessible', async () => {
    const page = await openRoles();
    await expect.poll(() => page.getByRole('heading', { name: 'Roles' }).isVisible()).toBe(true);
    await expect.poll(() => roleRow(page, 'Administrator').isVisible()).toBe(true);
    const search = page.getByRole('textbox', { name: 'Search by role name or description' });
    await search.fill('doct');
    await expect.poll(() => roleRow(page, 'Doctor').isVisible()).toBe(true);
    await expect.poll(() => roleRow(page, 'Administrator').count()).toBe(0);
    await search.fill('no role is called this');
    await expect.poll(() => isShown(page, 'There are no records to display')).toBe(true);
    await search.fill('');
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'roles');
  });

  it('lets the administrator add, edit and delete a role', async () => {
    const page = await openRoles();
    const name = uniqueName('Lab technicians ');
    await page.getByRole('button', { name: '+ Add New' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Add Role' }).isVisible()).toBe(true);
    await page.getByRole('textbox', { name: 'Role Name' }).fill(name);
    await page.getByRole('textbox', { name: 'Description' }).fill('Prints aligners');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => isShown(page, 'Role added successfully')).toBe(true);
    await searchRoles(page, name);
    await expect.poll(() => roleRow(page, name).isVisible()).toBe(true);
    expect(await roleRow(page, name).textContent()).toContain('Prints aligners');

    await page.getByRole('button', { name: `Edit ${name}` }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Edit Role' }).isVisible()).toBe(true);
    expect(await page.getByRole('textbox', { name: 'Role Name' }).inputValue()).toBe(name);
    expect(await page.getByRole('textbox', { name: 'Description' }).inputValue()).toBe('Prints aligners');
    await page.getByRole('textbox', { name: 'Description' }).fill('Prints and trims aligners');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => isShown(page, 'Role updated successfully')).toBe(true);
    // Back on the list, the search is as it was (the role need not be on the first page).
    expect(await page.getByRole('textbox', { name: 'Search by role name or description' }).inputValue()).toBe(name);
    await expect
      .poll(async () => (await roleRow(page, name).textContent()) ?? '')
      .toContain('Prints and trims aligners');

    await page.getByRole('button', { name: `Delete ${name}` }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByText('Are you sure you want to delete?').isVisible()).toBe(true);
    expect(await dialog.getByText(`Role '${name}'`, { exact: true }).isVisible()).toBe(true);
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => roleRow(page, name).isVisible()).toBe(true);

    await page.getByRole('button', { name: `Delete ${name}` }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => isShown(page, 'Role deleted successfully')).toBe(true);
    await expect.poll(() => roleRow(page, name).count()).toBe(0);
  });

  it("puts the server's duplicate-name message under Role Name", async () => {
    const page = await openRoles();
    await page.getByRole('button', { name: '+ Add New' }).click();
    const roleName = page.getByRole('textbox', { name: 'Role Name' });
    await roleName.fill('Administrator');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => fieldDescription(roleName)).toBe('A role with this name already exists');
    await expect.poll(() => page.getByRole('heading', { name: 'Add Role' }).isVisible()).toBe(true);
    // The form with a message under a field: its contrast and its tie to the field.
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'roles-form');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Roles' }).isVisible()).toBe(true);
  });

  it("says 'Failed to delete' when the role is still held by a user", async () => {
    const staff = await createStaff([]);
    const page = await openRoles();
    await searchRoles(page, staff.roleName);
    await page.getByRole('button', { name: `Delete ${staff.roleName}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => isShown(page, 'Failed to delete')).toBe(true);
    await expect.poll(() => isShown(page, 'This role is assigned to 1 user and cannot be deleted')).toBe(true);
    await expect.poll(() => roleRow(page, staff.roleName).isVisible()).toBe(true);
  });
});
