import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createStaff, e2eAdmin } from '../helpers/api.ts';
import {
  expectNoSeriousA11yViolations,
  newPage,
  screenshots,
  settle,
  openSignedIn,
  useBrowser,
} from '../helpers/browser.ts';
import { expectToast } from '../helpers/shown.ts';

const browser = useBrowser();

const menu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });
/** The table's data rows (the header row has no cells). */
const rows = (page: Page) => page.getByRole('row').filter({ has: page.getByRole('cell') });

describe('Audit Log screen', () => {
  let staff: Awaited<ReturnType<typeof createStaff>>;
  beforeAll(async () => {
    // Made through the API before the browser signs in: a role, its pages and a user.
    staff = await createStaff([1, 2, 3, 4, 5, 6]);
  });

  it("shows the administrator's own sign-in first, filters by action, and is accessible", async () => {
    const page = await newPage(browser());
    await openSignedIn(page, e2eAdmin.username, e2eAdmin.password);
    await menu(page).getByRole('link', { name: 'Audit Log', exact: true }).click();
    await page.waitForURL('**/audit');
    await settle(page);
    await expect.poll(() => page.getByRole('heading', { name: 'Audit Log' }).isVisible()).toBe(true);

    // At the administrator's first sign-in in a browser the portal saves the browser's time zone as theirs, after the sign-in.
    const newest = rows(page).filter({ hasNotText: 'account.time_zone' }).first();
    await expect.poll(async () => (await newest.textContent()) ?? '').toContain('auth.login');
    const cells = await newest.getByRole('cell').allTextContents();
    // The time to the second; the target as what it names, the raw target on a line under it.
    expect(cells).toEqual([
      expect.stringMatching(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d:\d\d$/),
      'admin',
      'auth.login',
      expect.stringMatching(/^User admin \(.+\)user:1$/),
      'success',
      expect.any(String),
    ]);
    expect(await rows(page).count()).toBeLessThanOrEqual(10);

    await page.getByRole('combobox', { name: 'Action' }).click();
    await page.getByRole('option', { name: 'permission.grant', exact: true }).click();
    await settle(page);
    // Only grants; the newest six are the pages just granted to the staff's role (other
    // browser tests on this portal may have granted pages to their roles before).
    await expect
      .poll(() =>
        rows(page)
          .filter({ hasText: `role:${staff.roleId}/page:` })
          .count(),
      )
      .toBe(6);
    const grants = await rows(page).evaluateAll((found) =>
      found.map((row) => [row.children[2]?.textContent, row.children[3]?.textContent]),
    );
    expect(new Set(grants.map(([action]) => action))).toEqual(new Set(['permission.grant']));
    expect(
      grants.slice(0, 6).map(([, target]) => target?.replace(/'[^']+'role:/, "'…'role:").replace(/\d+$/, '')),
    ).toEqual(Array(6).fill(`Role '${staff.roleName}' › page '…'role:${staff.roleId}/page:`));

    await page.getByRole('textbox', { name: 'User' }).fill('nobody-is-called-this');
    await expect.poll(() => page.getByText('There are no records to display').isVisible()).toBe(true);
    await page.getByRole('textbox', { name: 'User' }).fill('');
    await settle(page);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'audit-log');
  });

  it('shows every Outcome badge whole on a phone, nothing scrolling sideways', async () => {
    const page = await newPage(browser(), 375);
    await openSignedIn(page, e2eAdmin.username, e2eAdmin.password);
    await page.goto('/audit');
    await settle(page);
    await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
    await expect.poll(async () => (await rows(page).first().textContent()) ?? '').toMatch(/success|failure|refused/);
    const badges = await rows(page).evaluateAll((found) =>
      found.map((row) => {
        const badge = row.lastElementChild?.querySelector('.mantine-Badge-root');
        const label = badge?.querySelector('.mantine-Badge-label');
        const box = badge?.getBoundingClientRect();
        return {
          text: label?.textContent,
          isWhole: !!label && label.scrollWidth <= label.clientWidth,
          isOnScreen: !!box && box.right <= window.innerWidth,
        };
      }),
    );
    expect(badges.length).toBeGreaterThan(0);
    for (const badge of badges) expect(badge).toEqual({ text: expect.any(String), isWhole: true, isOnScreen: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectNoSeriousA11yViolations(page);
  });

  it('lets the administrator change a setting, refusing a tracking link without its placeholder, and audits it', async () => {
    const page = await newPage(browser());
    await openSignedIn(page, e2eAdmin.username, e2eAdmin.password);
    await menu(page).getByRole('link', { name: 'Settings', exact: true }).click();
    await page.waitForURL('**/settings');
    await expect.poll(() => page.getByRole('textbox', { name: 'Courier 1', exact: true }).inputValue()).toBe('DHL');
    const count = await page.getByRole('textbox', { name: /^Courier \d+$/ }).count();
    await page.getByRole('button', { name: 'Add courier' }).click();
    const name = page.getByRole('textbox', { name: `Courier ${count + 1}`, exact: true });
    const link = page.getByRole('textbox', { name: `Tracking link of courier ${count + 1}` });
    await name.fill('Swift Post');
    await link.fill('https://swift.example/track');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect
      .poll(() =>
        page.getByText('Tracking link must contain {trackingNumber} where the tracking number goes').isVisible(),
      )
      .toBe(true);
    await link.fill('https://swift.example/track/{trackingNumber}');
    await settle(page);
    await screenshots(page, 'settings');
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expectToast(page, 'Settings saved');

    await menu(page).getByRole('link', { name: 'Audit Log', exact: true }).click();
    await page.waitForURL('**/audit');
    await page.getByRole('combobox', { name: 'Action' }).click();
    await page.getByRole('option', { name: 'settings.update', exact: true }).click();
    const newest = rows(page).first();
    await expect.poll(async () => (await newest.textContent()) ?? '').toContain('settings.update');
    expect(await newest.textContent()).toMatch(
      /couriers: \[.*\] → \[.*Swift Post.*swift\.example\/track\/\{trackingNumber\}/,
    );

    // On a phone the screen is one column, nothing scrolling sideways.
    const phone = await newPage(browser(), 375);
    await openSignedIn(phone, e2eAdmin.username, e2eAdmin.password);
    await phone.goto('/settings');
    await expect.poll(() => phone.getByRole('textbox', { name: 'Courier 1', exact: true }).inputValue()).toBe('DHL');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectNoSeriousA11yViolations(phone);
  });

  it('is not in the menu of a Web user, and refused to them at /audit', async () => {
    const page = await newPage(browser());
    await openSignedIn(page, staff.username, staff.password);
    await settle(page);
    await expect.poll(() => menu(page).getByRole('link', { name: 'Users', exact: true }).isVisible()).toBe(true);
    expect(await menu(page).getByRole('link', { name: 'Audit Log' }).count()).toBe(0);
    await page.goto('/audit');
    await expect.poll(() => page.getByText('You do not have access to this page.').isVisible()).toBe(true);
    expect(await menu(page).getByRole('link', { name: 'Settings' }).count()).toBe(0);
    await page.goto('/settings');
    await expect.poll(() => page.getByText('You do not have access to this page.').isVisible()).toBe(true);
  });
});
