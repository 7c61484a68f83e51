import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, createActiveDoctor, e2eAdmin, uniqueName } from '../helpers/api.ts';
import {
  expectNoSeriousA11yViolations,
  newPage,
  screenshots,
  settle,
  openSignedIn,
  useBrowser,
} from '../helpers/browser.ts';
import { fillCaseDetails } from '../helpers/case-form.ts';
import { submitCase } from '../helpers/cases.ts';
import { selectOption } from '../helpers/forms.ts';

const browser = useBrowser();
const phoneWidth = 375;

let doctor: Awaited<ReturnType<typeof createActiveDoctor>>;
let trackingNo: string;
beforeAll(async () => {
  doctor = await createActiveDoctor({ lastname: uniqueName('Phone') });
  ({ TrackingNo: trackingNo } = await submitCase(await apiLogin(doctor.username, doctor.password)));
});

/** What scrolls sideways at this width: the page itself, or any element that scrolls its content. */
const sidewaysScrollers = (page: Page) =>
  page.evaluate(() => {
    const found: string[] = [];
    if (document.documentElement.scrollWidth > window.innerWidth) found.push('the page');
    for (const element of document.querySelectorAll<HTMLElement>('*')) {
      const overflow = getComputedStyle(element).overflowX;
      if ((overflow === 'auto' || overflow === 'scroll') && element.scrollWidth > element.clientWidth + 1) {
        found.push(`${element.tagName.toLowerCase()}.${element.className}`);
      }
    }
    return found;
  });

const visibleHeadingsOfLevelOne = (page: Page) =>
  page.getByRole('heading', { level: 1 }).evaluateAll((headings) => headings.filter((h) => h.checkVisibility()).length);

async function openOnPhone(username: string, password: string): Promise<Page> {
  const page = await newPage(browser(), phoneWidth);
  await openSignedIn(page, username, password);
  await settle(page);
  return page;
}

describe('Phones (375 px)', () => {
  it('shows every list without sideways scrolling, one h1 a screen, and Status and View in each case row', async () => {
    const page = await openOnPhone(e2eAdmin.username, e2eAdmin.password);
    for (const path of ['/dashboard', '/doctors', '/users', '/roles', '/rolepermissions', '/audit']) {
      await page.goto(path);
      await settle(page);
      await expect.poll(() => page.getByRole('table').first().isVisible(), { message: path }).toBe(true);
      expect(await sidewaysScrollers(page), path).toEqual([]);
      expect(await visibleHeadingsOfLevelOne(page), path).toBe(1);
    }

    await page.goto('/dashboard');
    await page.getByRole('textbox', { name: 'Search' }).fill(trackingNo);
    const row = page.getByRole('row', { name: new RegExp(trackingNo) });
    await expect.poll(() => row.getByRole('button', { name: 'View' }).isVisible()).toBe(true);
    await expect.poll(() => row.getByText(/^new$/i).isVisible()).toBe(true);
    // The columns left out on a phone open as the row's detail.
    await row.getByRole('button', { name: `Details of ${trackingNo}` }).click();
    await expect.poll(() => page.getByRole('term').filter({ hasText: 'Doctor' }).first().isVisible()).toBe(true);
    await expect
      .poll(() => page.getByRole('definition').filter({ hasText: 'March 5, 2001' }).first().isVisible())
      .toBe(true);
    expect(await sidewaysScrollers(page)).toEqual([]);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'phone-dashboard-detail');
  });

  it('gives every tooth of the picker a target of at least 44 x 44 px', async () => {
    const page = await openOnPhone(doctor.username, doctor.password);
    await page.goto('/cases');
    await settle(page);
    await fillCaseDetails(page, { firstname: uniqueName('Pat'), lastname: 'Phone', dob: '2001-03-05' });
    await selectOption(page, 'Gender', 'Female');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: "Select teeth: Don't Move Tooth" }).click();
    const picker = page.getByRole('dialog', { name: 'Select Tooth' });
    await expect.poll(() => picker.getByRole('checkbox').count()).toBe(32);
    // The target is the tooth's label: its number and its checkbox.
    const sizes = await picker
      .locator('label')
      .filter({ has: page.getByRole('checkbox') })
      .evaluateAll((labels) =>
        labels.map((label) => label.getBoundingClientRect()).map((box) => [box.width, box.height]),
      );
    expect(sizes).toHaveLength(32);
    expect(sizes.filter(([width, height]) => width! < 44 || height! < 44)).toEqual([]);
    expect(await sidewaysScrollers(page)).toEqual([]);
    await picker.getByRole('checkbox', { name: /Upper left 6 \(tooth 14\)/ }).click();
    await expect.poll(() => picker.getByRole('checkbox', { name: /Upper left 6 \(tooth 14\)/ }).isChecked()).toBe(true);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'phone-tooth-picker');
  });
});
