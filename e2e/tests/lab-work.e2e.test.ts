import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiLogin, createActiveDoctor, createStaff } from '../helpers/api.ts';
import {
  expectNoSeriousA11yViolations,
  useBrowser,
  newPage,
  openSignedIn,
  screenshots,
  settle,
} from '../helpers/browser.ts';
import { submitCase } from '../helpers/cases.ts';
import { expectToast } from '../helpers/shown.ts';
import { scaled } from '../helpers/test-time.ts';

/** Issue 24, the lab's day: a case's technician, internal notes, and all its files as one ZIP. */

const browser = useBrowser();
let doctor: Awaited<ReturnType<typeof createActiveDoctor>>;
let staff: Awaited<ReturnType<typeof createStaff>>;
let submitted: { CaseId: number; TrackingNo: string };

vi.setConfig({ expect: { poll: { timeout: scaled(10_000) } } });

beforeAll(async () => {
  doctor = await createActiveDoctor();
  staff = await createStaff([1]);
  submitted = await submitCase(await apiLogin(doctor.username, doctor.password));
});

const labRegion = (page: Page) => page.getByRole('region', { name: 'Lab' });
/** A choice of the dashboard's technician filter (its radio is under its label). */
const technicianFilter = (page: Page, name: string) =>
  page.locator('label').filter({ hasText: new RegExp(`^${name}$`) });
const caseRow = (page: Page) => page.getByRole('row').filter({ hasText: submitted.TrackingNo });

describe("The lab's work on a case", () => {
  it('assigns the case, keeps a note the doctor never sees, filters Mine in the address, and downloads every file', async () => {
    const page = await newPage(browser());
    await openSignedIn(page, staff.username, staff.password, `/cases/${submitted.CaseId}`);
    const technician = labRegion(page).getByRole('combobox', { name: 'Technician' });
    await expect.poll(() => technician.inputValue()).toBe('Unassigned');
    await settle(page);

    // Its time in the status, and the lab's due date (TURNAROUND_DAYS: new 2 days).
    const due = new Date(Date.now() + 2 * 86_400_000).toLocaleDateString('en-US', {
      month: 'long',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    });
    await expect.poll(() => page.getByText(`New since today, due ${due}`).isVisible()).toBe(true);

    // No plan approved yet: neither Dispatched nor Delivered is offered, and the page says why.
    await page.getByRole('combobox', { name: 'Case status' }).click();
    expect(await page.getByRole('option', { name: 'Dispatched' }).getAttribute('aria-disabled')).toBe('true');
    expect(await page.getByRole('option', { name: 'Delivered' }).getAttribute('aria-disabled')).toBe('true');
    await page.keyboard.press('Escape');
    await expect
      .poll(() => page.getByText('Dispatched or Delivered once the doctor approves a treatment plan').isVisible())
      .toBe(true);

    await technician.click();
    // Every test's staff is a Sam Staff: with several, each option names its username.
    await page.getByRole('option', { name: new RegExp(`^Sam Staff( \\(${staff.username}\\))?$`) }).click();
    await expectToast(page, 'Case assigned to Sam Staff');
    await expect.poll(() => page.getByText('Assigned to Sam Staff').isVisible()).toBe(true);

    // By keyboard: the toast in the corner is over the button for its 3 s.
    const notes = labRegion(page).getByRole('form', { name: 'Add an internal note' });
    const addNote = async () => {
      await notes.getByRole('button', { name: 'Add note' }).focus();
      await page.keyboard.press('Enter');
    };
    await addNote();
    await expect.poll(() => notes.getByText('Note text is required').isVisible()).toBe(true);
    await notes.getByRole('textbox', { name: 'New note' }).fill('Lower scan re-cut at the distal of 37');
    await addNote();
    const list = labRegion(page).getByRole('list', { name: 'Internal notes' });
    await expect.poll(() => list.getByText('Lower scan re-cut at the distal of 37').isVisible()).toBe(true);
    await expect.poll(() => notes.getByRole('textbox', { name: 'New note' }).inputValue()).toBe('');
    await page.mouse.move(0, 0);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'case-lab-panel');

    // The link downloads with the page's own session (the cookie), named by the tracking number.
    const href = await page.getByRole('link', { name: 'All files (ZIP)' }).getAttribute('href');
    const zip = await page.request.get(href!);
    expect(zip.status()).toBe(200);
    expect(zip.headers()['content-disposition']).toContain(`filename="${submitted.TrackingNo}.zip"`);
    expect((await zip.body()).subarray(0, 2).toString()).toBe('PK');

    // The dashboard: Mine lists the case, in the address, and Back restores the filter.
    await page.goto('/dashboard');
    await technicianFilter(page, 'Mine').click();
    await page.waitForURL('**/dashboard?assignee=mine');
    await expect.poll(() => caseRow(page).isVisible()).toBe(true);
    expect(await caseRow(page).getByRole('cell', { name: '0 d', exact: true }).count()).toBe(1);
    // Overdue only: this case, two days from its due date, is not listed; the filter is in the address.
    await page.getByRole('switch', { name: 'Overdue only' }).click({ force: true });
    await page.waitForURL((url) => url.searchParams.get('overdue') === 'true');
    await expect.poll(() => caseRow(page).count()).toBe(0);
    await page.getByRole('switch', { name: 'Overdue only' }).click({ force: true });
    await expect.poll(() => caseRow(page).isVisible()).toBe(true);
    await technicianFilter(page, 'Unassigned').click();
    await page.waitForURL('**/dashboard?assignee=unassigned');
    await expect.poll(() => page.getByRole('radio', { name: 'Unassigned' }).isChecked()).toBe(true);
    await expect.poll(() => caseRow(page).count()).toBe(0);
    // Back from the page itself, queued after its own pushState: Playwright's goBack picks its
    // entry from the browser process's list, and once, in a CI run, did not land one step back.
    // The entries first, so that a failure says whether the steps or the going back went wrong.
    const entries = () =>
      page.evaluate(() => {
        const current = navigation.currentEntry?.index ?? -1;
        return navigation.entries().map((entry) => `${entry.index === current ? '>' : ''}${entry.url ? new URL(entry.url).search : '?'}`);
      });
    expect((await entries()).slice(-2)).toEqual(['?assignee=mine', '>?assignee=unassigned']);
    await page.evaluate(() => history.back());
    await expect.poll(() => new URL(page.url()).search, { message: `entries: ${(await entries()).join(' ')}` }).toBe('?assignee=mine');
    await expect.poll(() => caseRow(page).isVisible()).toBe(true);
    // Submitted up to yesterday: not this case; the dates are in the address too.
    const filters = page.getByRole('group', { name: 'Filters' });
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await filters.getByLabel('Submitted to').fill(yesterday);
    await page.waitForURL((url) => url.searchParams.get('to') === yesterday);
    await expect.poll(() => caseRow(page).count()).toBe(0);
    await filters.getByLabel('Submitted to').fill('');
    await page.waitForURL((url) => !url.searchParams.has('to'));
    await expect.poll(() => caseRow(page).isVisible()).toBe(true);
    // One doctor's cases, by a link naming the doctor's user id: the filter shows their name.
    await page.goto(`/dashboard?assignee=mine&doctor=${doctor.userId}`);
    await expect.poll(() => caseRow(page).isVisible()).toBe(true);
    await expect.poll(() => filters.getByRole('combobox', { name: 'Doctor' }).inputValue()).toBe('Ada Lovelace');
    const other = await createActiveDoctor({ lastname: 'Hopper' });
    await page.goto(`/dashboard?assignee=mine&doctor=${other.userId}`);
    await expect.poll(() => filters.getByRole('combobox', { name: 'Doctor' }).inputValue()).toBe('Ada Hopper');
    await expect.poll(() => caseRow(page).count()).toBe(0);
    await page.goBack();
    await expect.poll(() => caseRow(page).isVisible()).toBe(true);
    // Unassigned again from the list's own select.
    await caseRow(page)
      .getByRole('combobox', { name: `Technician of case ${submitted.TrackingNo}` })
      .click();
    await page.getByRole('option', { name: 'Unassigned' }).click();
    await expectToast(page, 'Case unassigned');
    await expect.poll(() => caseRow(page).count()).toBe(0);
    await settle(page);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'dashboard-technician-filter');

    // The doctor's page: the timeline tells who has the case; no Lab region, no note.
    const own = await newPage(browser());
    await openSignedIn(own, doctor.username, doctor.password, `/cases/${submitted.CaseId}`);
    await expect.poll(() => own.getByText('Assigned to Sam Staff').isVisible()).toBe(true);
    expect(await labRegion(own).count()).toBe(0);
    expect(await own.getByText('Lower scan re-cut').count()).toBe(0);
  });
});
