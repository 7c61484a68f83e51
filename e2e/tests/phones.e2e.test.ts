import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, createActiveDoctor, e2eAdmin, uniqueName } from '../helpers/api.ts';
import {
  expectNoSeriousA11yViolations,
  newPage,
  screenshots,
  settle,
  openSignedIn,
  signIn,
  useBrowser,
} from '../helpers/browser.ts';
import { fillCaseDetails } from '../helpers/case-form.ts';
import { textbox } from '../helpers/doctor-form.ts';
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

/**
 * Words of a table drawn over two lines although they are short enough to have been given a
 * line of their own: broken mid-word to fit ("Cit y", "case.downl oad"), not a long name wrapped.
 */
const shortWordsBroken = (table: Locator) =>
  table.evaluate((element) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.textContent!.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const rects = [...range.getClientRects()];
        const width = rects.reduce((sum, rect) => sum + rect.width, 0);
        if (new Set(rects.map((rect) => Math.round(rect.top))).size > 1 && width < 150) broken.push(word[0]);
      }
    }
    return broken;
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
    // The lab's filters wait behind a button, so the list starts above the fold.
    const doctorFilter = page.getByRole('combobox', { name: 'Doctor' });
    await expect.poll(() => page.getByRole('button', { name: 'Filters' }).isVisible()).toBe(true);
    expect(await doctorFilter.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Filters' }).click();
    await expect.poll(() => doctorFilter.isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Filters' }).click();
    await expect.poll(() => doctorFilter.isVisible()).toBe(false);
    // The searched list's answer, before a row is opened: a later answer redraws the rows.
    const searched = page.waitForResponse((response) => response.url().includes(`search=${trackingNo}`));
    await page.getByRole('textbox', { name: 'Search' }).fill(trackingNo);
    await searched;
    const row = page.getByRole('row', { name: new RegExp(trackingNo) });
    await expect.poll(() => row.getByRole('button', { name: 'View' }).isVisible()).toBe(true);
    await expect.poll(() => row.getByText(/^new$/i).isVisible()).toBe(true);
    // Whose case it is, without opening the row.
    expect(await row.getByText('Pat Patient', { exact: true }).isVisible()).toBe(true);
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

  it('breaks no short word in the clinics table or the audit log', async () => {
    const page = await newPage(browser(), phoneWidth);
    await page.goto('/register');
    for (const [clinic, city] of [
      ['Smile Clinic', 'Berlin'],
      ['Zahnarztpraxis am Brandenburger Tor', 'Hamburg'],
    ] as const) {
      await textbox(page, 'Clinic Name').fill(clinic);
      await textbox(page, 'Address').fill('Unter den Linden 1, 10117 Berlin');
      await selectOption(page, 'Country', 'Germany', 'Germ');
      await selectOption(page, 'City', city, city);
      await page.getByRole('button', { name: 'Add Clinic' }).click();
    }
    const clinics = page.getByRole('table', { name: 'Clinics' });
    await expect.poll(() => clinics.getByRole('row').count()).toBe(3);
    expect(await shortWordsBroken(clinics)).toEqual([]);
    expect(await sidewaysScrollers(page)).toEqual([]);
    await screenshots(page, 'phone-clinics');

    // doctor.create and auth.login at least: the doctor was added and signed in above.
    const admin = await openOnPhone(e2eAdmin.username, e2eAdmin.password);
    await admin.goto('/audit');
    await settle(admin);
    const log = admin.getByRole('table');
    await expect.poll(() => log.getByRole('cell', { name: 'doctor.create' }).count()).toBeGreaterThan(0);
    expect(await shortWordsBroken(log)).toEqual([]);
    expect(await sidewaysScrollers(admin)).toEqual([]);
  });

  it("shows the sign-in toast without covering the user menu, or the page's title on a phone", async () => {
    for (const width of [phoneWidth, 1280]) {
      const page = await newPage(browser(), width);
      await signIn(page, doctor.username, doctor.password);
      await expect.poll(() => page.getByText('Login successful!').isVisible()).toBe(true);
      // A trial click fails while another element would take the click (the toast lasts 5 s).
      await page.getByRole('button', { name: 'User menu' }).click({ trial: true, timeout: 2000 });
      expect(await page.getByText('Login successful!').isVisible(), `${width} px`).toBe(true);
      if (width !== phoneWidth) continue;
      const toast = (await page.getByText('Login successful!').boundingBox())!;
      const title = (await page.getByRole('heading', { name: 'Dashboard', exact: true }).boundingBox())!;
      expect(toast.y > title.y + title.height || toast.y + toast.height < title.y, 'the toast covers the title').toBe(
        true,
      );
    }
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
    // The box drawn is a target of its own too: at least 24 px (WCAG 2.2, 2.5.8).
    for (const box of await picker.getByRole('checkbox').all()) {
      const { width, height } = (await box.boundingBox())!;
      expect(Math.min(width, height), (await box.getAttribute('aria-label')) ?? '').toBeGreaterThanOrEqual(24);
    }
    expect(await sidewaysScrollers(page)).toEqual([]);
    await picker.getByRole('checkbox', { name: /Upper left 6 \(tooth 14\)/ }).click();
    await expect.poll(() => picker.getByRole('checkbox', { name: /Upper left 6 \(tooth 14\)/ }).isChecked()).toBe(true);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'phone-tooth-picker');
  });
});
