import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { userMessages } from '@portal/contract';
import { adminToken, apiCall, apiLogin, e2eAdmin, passwordLinkMailedTo, uniqueName } from '../helpers/api.ts';
import {
  baseUrl,
  clickUntil,
  expectNoSeriousA11yViolations,
  useBrowser,
  newPage,
  screenshots,
  settle,
  openSignedIn,
  menuLink,
} from '../helpers/browser.ts';
import { chooseFile, fieldDescription, selectOption } from '../helpers/forms.ts';
import { isShown } from '../helpers/shown.ts';
import { scaled } from '../helpers/test-time.ts';

const browser = useBrowser();
let roleName: string;
beforeAll(async () => {
  roleName = uniqueName('Front desk ');
  await apiCall('POST', '/role/add', { token: await adminToken(), json: { roleName, description: 'e2e' } });
});

async function openUsers(): Promise<Page> {
  const page = await newPage(browser());
  await openSignedIn(page, e2eAdmin.username, e2eAdmin.password);
  await menuLink(page, 'Users').click();
  await page.waitForURL('**/users');
  await settle(page);
  return page;
}

const textbox = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });
const userRow = (page: Page, username: string) => page.getByRole('row').filter({ hasText: username });
const pictureInput = (page: Page) => page.getByRole('button', { name: 'Profile Picture' });
const bluePng = () =>
  sharp({ create: { width: 60, height: 60, channels: 3, background: '#07f' } })
    .png()
    .toBuffer();

interface ListedUser {
  UserId: number;
  UserName: string;
  FirstName: string;
  RoleName: string | null;
  ProfilePic: string | null;
}

async function findUser(username: string): Promise<ListedUser | undefined> {
  const search = encodeURIComponent(username);
  const users = await apiCall<ListedUser[]>('GET', `/user/get_users_list?search=${search}`, {
    token: await adminToken(),
  });
  return users.find((user) => user.UserName === username);
}

// The form's own rules (each validation message under its field, nothing sent while one
// stands, the refused picture, what it sends) are checked without a browser:
// apps/web/src/features/users/components/user-form.test.tsx.
describe('Users screen', () => {
  it('lists users with the spec columns and a search, and is accessible', async () => {
    const page = await openUsers();
    await expect.poll(() => userRow(page, e2eAdmin.username).first().isVisible()).toBe(true);
    const header = (await page.getByRole('row').first().textContent()) ?? '';
    for (const column of ['S.No', 'User Name', 'First Name', 'Last Name', 'Email', 'Mobile No'])
      expect(header).toContain(column);
    await textbox(page, 'Search by user name or first name').fill('no such person');
    await expect.poll(() => isShown(page, 'There are no records to display')).toBe(true);
    await textbox(page, 'Search by user name or first name').fill('');
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'users');
  });

  it('lets the administrator add a user with a picture, edit and delete them', async () => {
    const page = await openUsers();
    const username = uniqueName('clerk');
    await page.getByRole('button', { name: '+ Add New' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Add User' }).isVisible()).toBe(true);
    await textbox(page, 'Username').fill(username);
    await selectOption(page, 'Role', roleName);
    await textbox(page, 'First Name').fill('Grace');
    await textbox(page, 'Last Name').fill('Hopper');
    // No password to type: the new user is invited to set their own.
    expect(await page.getByLabel('Password').count()).toBe(0);
    await textbox(page, 'Email').fill(`${username}@lab.test`);
    await textbox(page, 'Mobile No').fill('+1 555 0100');
    await chooseFile(page, pictureInput(page), { name: 'grace.png', mimeType: 'image/png', buffer: await bluePng() });
    await expect.poll(() => page.getByRole('img', { name: 'Profile picture preview' }).isVisible()).toBe(true);
    expect(
      await page
        .getByRole('img', { name: 'Profile picture preview' })
        .evaluate((image) => image.getBoundingClientRect().width),
    ).toBe(100);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'users-form');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => isShown(page, userMessages.invited)).toBe(true);
    await expect.poll(() => userRow(page, username).isVisible()).toBe(true);
    // The invitation, as the new user reads it: the welcoming page sets their password.
    const invitation = new URL(await passwordLinkMailedTo(`${username}@lab.test`));
    const invited = await newPage(browser());
    await invited.goto(`${invitation.pathname}${invitation.search}`);
    await expect.poll(() => invited.getByRole('heading', { name: 'Welcome to Aligner Portal' }).isVisible()).toBe(true);
    await textbox(invited, 'Password').fill('clerk-passphrase');
    await textbox(invited, 'Confirm Password').fill('clerk-passphrase');
    await invited.getByRole('button', { name: 'Set Password' }).click();
    await invited.waitForURL((url) => url.pathname === '/');
    await invited.close();
    expect(await userRow(page, username).textContent()).toContain('Hopper');

    const added = await findUser(username);
    expect(added).toMatchObject({ FirstName: 'Grace', RoleName: roleName });
    expect(added!.ProfilePic).toBeTruthy();
    const picture = await fetch(`${baseUrl()}${added!.ProfilePic}`, {
      headers: { authorization: `Bearer ${await adminToken()}` },
    });
    expect(picture.status).toBe(200);

    // The server searches and pages: the search is in the request.
    const searched = page.waitForRequest((request) => {
      const url = new URL(request.url());
      return url.pathname === '/api/user/get_users_list' && url.searchParams.get('search') === 'Grace';
    });
    await textbox(page, 'Search by user name or first name').fill('Grace');
    expect(new URL((await searched).url()).searchParams.get('pageSize')).toBe('10');
    await expect.poll(() => userRow(page, username).isVisible()).toBe(true);
    await textbox(page, 'Search by user name or first name').fill(username);
    await expect.poll(() => page.getByRole('row').count()).toBe(2);

    await clickUntil(
      () => page.getByRole('button', { name: `Edit ${username}` }).click({ timeout: scaled(10_000) }),
      () => page.getByRole('heading', { name: 'Edit User' }).isVisible(),
      `editing ${username}`,
    );
    expect(await textbox(page, 'Email').inputValue()).toBe(`${username}@lab.test`);
    // The role's name shows once the role list has arrived.
    await expect.poll(() => page.getByRole('combobox', { name: 'Role' }).inputValue()).toBe(roleName);
    await expect.poll(() => page.getByRole('img', { name: 'Profile picture preview' }).isVisible()).toBe(true);
    await textbox(page, 'First Name').fill('Amazing Grace');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => isShown(page, 'User updated successfully')).toBe(true);
    await expect.poll(async () => (await userRow(page, username).textContent()) ?? '').toContain('Amazing Grace');
    // The password was left empty, so the one set from the invitation still works.
    expect(await apiLogin(username, 'clerk-passphrase')).toBeTruthy();

    await page.getByRole('button', { name: `Delete ${username}` }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByText('Are you sure you want to delete?').isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => isShown(page, 'User deleted successfully')).toBe(true);
    await expect.poll(() => userRow(page, username).count()).toBe(0);
    expect(await findUser(username)).toBeUndefined();
  });

  it("puts the server's taken-username message under Username", async () => {
    const page = await openUsers();
    await page.getByRole('button', { name: '+ Add New' }).click();
    await textbox(page, 'Username').fill(e2eAdmin.username);
    await selectOption(page, 'Role', roleName);
    await textbox(page, 'First Name').fill('Copy');
    await textbox(page, 'Last Name').fill('Cat');
    await textbox(page, 'Email').fill('copy@lab.test');
    await textbox(page, 'Mobile No').fill('5550102');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => fieldDescription(textbox(page, 'Username'))).toBe('Username is already taken');
    await expect.poll(() => page.getByRole('heading', { name: 'Add User' }).isVisible()).toBe(true);
    // The form with a message under a field: its contrast and its tie to the field.
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'users-form-errors');
  });
});
