import { describe, expect, it } from 'vitest';
import { e2eAdmin } from '../helpers/api.ts';
import { expectNoSeriousA11yViolations, useBrowser, newPage, screenshots, settle, signIn } from '../helpers/browser.ts';
import { toastShown } from '../helpers/shown.ts';

const browser = useBrowser();

// Which messages the form shows, and when, is checked without a browser:
// apps/web/src/features/auth/components/login-form.test.tsx.
describe('Login screen', () => {
  it('shows the sign-in form and its required messages, accessibly', async () => {
    const page = await newPage(browser());
    await page.goto('/');
    await expect.poll(() => page.getByText('Sign in to start your session').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect.poll(() => page.getByText('Password is required').isVisible()).toBe(true);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'login');
  });

  it('refuses wrong credentials with the server message', async () => {
    const page = await newPage(browser());
    await page.goto('/');
    await page.getByRole('textbox', { name: 'Username' }).fill('admin');
    await page.getByRole('textbox', { name: 'Password' }).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect.poll(() => toastShown(page, 'Invalid username or password')).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it('signs the administrator in, shows the fixed menu, and sends a signed-in user from / to /dashboard', async () => {
    const page = await newPage(browser());
    await signIn(page, e2eAdmin.username, e2eAdmin.password);
    await settle(page);
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    // Dashboard may carry the unread-messages badge of other tests' cases ("Dashboard 3 unread"),
    // Doctors the count of other tests' doctors waiting for activation.
    for (const item of ['Dashboard', 'Roles', 'Role Permissions', 'Users', 'Doctors', 'Add Case']) {
      const name = new RegExp(`^${item}( ?\\d+ (unread|waiting for activation))?$`);
      await expect.poll(() => menu.getByRole('link', { name }).isVisible()).toBe(true);
    }
    await page.goto('/');
    await page.waitForURL('**/dashboard');
    const keys = await page.evaluate(() => Object.keys(localStorage).sort());
    expect(keys).toEqual(['createdAt', 'profilePic', 'roleId', 'token', 'userId', 'userType', 'username']);
  });

  it('returns to / when the stored token has expired', async () => {
    const page = await newPage(browser());
    await signIn(page, e2eAdmin.username, e2eAdmin.password);
    await page.evaluate(() => {
      const token = localStorage.getItem('token')!;
      const [header, payload, signature] = token.split('.');
      const claims = JSON.parse(atob(payload!.replace(/-/g, '+').replace(/_/g, '/')));
      const expired = btoa(JSON.stringify({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 })).replace(/=+$/, '');
      localStorage.setItem('token', `${header}.${expired}.${signature}`);
    });
    await page.goto('/dashboard');
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  it('signs out from the user menu, whose open menu holds only menu items (axe aria-required-children)', async () => {
    const page = await newPage(browser());
    await signIn(page, e2eAdmin.username, e2eAdmin.password);
    await page.getByRole('button', { name: 'User menu' }).click();
    await expect.poll(() => page.getByText(/Member since/).isVisible()).toBe(true);
    await expectNoSeriousA11yViolations(page);
    await expect.poll(() => page.getByRole('menu').isVisible()).toBe(true);
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
  });

  it('opens the user menu from the keyboard at its first use (its code loads then), and Escape gives the focus back', async () => {
    const page = await newPage(browser());
    await signIn(page, e2eAdmin.username, e2eAdmin.password);
    const button = page.getByRole('button', { name: 'User menu' });
    expect(await button.getAttribute('aria-haspopup')).toBe('menu');
    await button.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('menu').isVisible()).toBe(true);
    await expect.poll(() => button.getAttribute('aria-expanded')).toBe('true');
    // The focus is in the menu, whose items the arrows move through.
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[role="menu"]') !== null)).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('menu').count()).toBe(0);
    await expect.poll(() => button.evaluate((element) => element === document.activeElement)).toBe(true);
  });
});
