import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiLogin, createActiveDoctor, createStaff, portalApi } from '../helpers/api.ts';
import {
  expectNoSeriousA11yViolations,
  useBrowser,
  newPage,
  screenshots,
  settle,
  openSignedIn,
  menuLink,
} from '../helpers/browser.ts';
import { submitCase } from '../helpers/cases.ts';
import { chooseStatus, statusDialog } from '../helpers/case-status.ts';
import { giveApprovedPlan } from '../helpers/plans.ts';
import { expectToast } from '../helpers/shown.ts';
import { scaled } from '../helpers/test-time.ts';

/** Issue 9: a case's own page, /cases/:caseId: address, Back, reload, deep link, status changes, timeline. */

const browser = useBrowser();
let doctor: Awaited<ReturnType<typeof createActiveDoctor>>;
let staff: Awaited<ReturnType<typeof createStaff>>;
let submitted: { CaseId: number; TrackingNo: string };

vi.setConfig({ expect: { poll: { timeout: scaled(10_000) } } });

beforeAll(async () => {
  doctor = await createActiveDoctor();
  // Dashboard and Add Case (/cases): both in the lab's menu, so the case page can show neither is current.
  staff = await createStaff([1, 6]);
  const doctorToken = await apiLogin(doctor.username, doctor.password);
  submitted = await submitCase(doctorToken);
  // The status test dispatches: that needs the doctor's approved plan (docs/decisions/plans.md § Treatment plans).
  await giveApprovedPlan(portalApi(), await apiLogin(staff.username, staff.password), doctorToken, submitted.CaseId);
});

const heading = (page: Page) => page.getByRole('heading', { name: `Case ${submitted.TrackingNo}` });
const statusRegion = (page: Page) => page.getByRole('region', { name: 'Status' });
const pathname = (page: Page) => new URL(page.url()).pathname;
/** The menu's items marked as the current page, by their names. */
async function currentMenuItems(page: Page): Promise<string[]> {
  await expect.poll(() => menuLink(page, 'Dashboard').isVisible()).toBe(true);
  const current = page.getByRole('navigation', { name: 'Main menu' }).locator('[aria-current="page"]');
  // Without the count badges (Dashboard's unread messages).
  return (await current.allTextContents()).map((text) => text.replace(/\d.*$/, '').trim());
}

describe('The case page', () => {
  it('opens from the list at /cases/<id>, survives a reload, and Back returns to the list', async () => {
    const page = await newPage(browser());
    await openSignedIn(page, staff.username, staff.password);
    await page.getByRole('textbox', { name: 'Search' }).fill(submitted.TrackingNo);
    // The search settles into the address (after its debounce), so Back returns to it.
    await page.waitForURL((url) => url.searchParams.get('q') === submitted.TrackingNo);
    const row = page.getByRole('row').filter({ hasText: submitted.TrackingNo });
    await expect.poll(() => row.isVisible()).toBe(true);
    await row.getByRole('button', { name: 'View' }).click();
    await page.waitForURL(`**/cases/${submitted.CaseId}`);
    await expect.poll(() => heading(page).isVisible()).toBe(true);
    // A case's page is neither Dashboard nor Add Cases (/cases): no item is marked (issue 41).
    expect(await currentMenuItems(page)).toEqual([]);

    await page.reload();
    await expect.poll(() => heading(page).isVisible()).toBe(true);
    expect(pathname(page)).toBe(`/cases/${submitted.CaseId}`);

    // Back to the list as it was: the search is in its address.
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/dashboard' && url.searchParams.get('q') === submitted.TrackingNo);
    await expect.poll(() => page.getByRole('group', { name: 'Filter cases by status' }).isVisible()).toBe(true);
    expect(await currentMenuItems(page)).toEqual(['Dashboard']);
    await page.goForward();
    await expect.poll(() => heading(page).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Back to list' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
  });

  it('asks before a change, needs courier and tracking number to dispatch and a reason to go back', async () => {
    const page = await newPage(browser());
    await openSignedIn(page, staff.username, staff.password, `/cases/${submitted.CaseId}`);
    await expect.poll(() => heading(page).isVisible()).toBe(true);
    await settle(page);

    await chooseStatus(page, 'Dispatched');
    await statusDialog(page).getByRole('button', { name: 'Confirm' }).click();
    await expect
      .poll(() => statusDialog(page).getByText('Courier is required for a dispatched case').isVisible())
      .toBe(true);
    await expect
      .poll(() => statusDialog(page).getByText('Tracking number is required for a dispatched case').isVisible())
      .toBe(true);
    await statusDialog(page).getByRole('textbox', { name: 'Courier' }).fill('DHL Express');
    await statusDialog(page).getByRole('textbox', { name: 'Tracking number' }).fill('JD0146000099');
    const note = statusDialog(page).getByRole('textbox', { name: 'Note' });
    // Unlike the Internal notes beside, this one reaches the doctor, and says so.
    expect(await note.getAttribute('aria-describedby')).toBeTruthy();
    expect(await page.locator(`#${await note.getAttribute('aria-describedby')}`).textContent()).toBe(
      "For the doctor: shown on the case's timeline.",
    );
    await note.fill('Two boxes');
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'case-page-dispatch-modal');
    await statusDialog(page).getByRole('button', { name: 'Confirm' }).click();
    await expectToast(page, 'Case status changed to Dispatched');
    await expect.poll(() => statusDialog(page).count()).toBe(0);
    await expect.poll(() => statusRegion(page).getByText('New → Dispatched', { exact: true }).isVisible()).toBe(true);
    expect(await statusRegion(page).textContent()).toContain('Courier: DHL Express, tracking number JD0146000099');
    expect(await statusRegion(page).textContent()).toContain('Note: Two boxes');

    await chooseStatus(page, 'In Progress');
    const reason = statusDialog(page).getByRole('textbox', { name: 'Reason' });
    await statusDialog(page).getByRole('button', { name: 'Confirm' }).click();
    await expect
      .poll(() => statusDialog(page).getByText('A reason is required to move a case back').isVisible())
      .toBe(true);
    await reason.fill('Returned by the courier');
    await statusDialog(page).getByRole('button', { name: 'Confirm' }).click();
    await expectToast(page, 'Case status changed to In Progress');
    await expect
      .poll(() => statusRegion(page).getByText('Dispatched → In Progress', { exact: true }).isVisible())
      .toBe(true);
    expect(await statusRegion(page).textContent()).toContain('Reason: Returned by the courier');

    await chooseStatus(page, 'Dispatched');
    await statusDialog(page).getByRole('textbox', { name: 'Courier' }).fill('UPS');
    await statusDialog(page).getByRole('textbox', { name: 'Tracking number' }).fill('1Z999AA10123456784');
    await statusDialog(page).getByRole('button', { name: 'Confirm' }).click();
    await expectToast(page, 'Case status changed to Dispatched');
    await expect
      .poll(() => statusRegion(page).getByText('In Progress → Dispatched', { exact: true }).isVisible())
      .toBe(true);
  });

  it('shows the doctor the courier and tracking number, and a shared link leads there after sign-in', async () => {
    const page = await newPage(browser());
    await page.goto(`/cases/${submitted.CaseId}`);
    await page.getByRole('textbox', { name: 'Username' }).fill(doctor.username);
    await page.getByRole('textbox', { name: 'Password' }).fill(doctor.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`**/cases/${submitted.CaseId}`);
    await expect.poll(() => heading(page).isVisible()).toBe(true);
    await settle(page);

    expect(await page.getByRole('button', { name: 'Update Status' }).count()).toBe(0);
    expect(await currentMenuItems(page)).toEqual([]);
    const shipped = statusRegion(page);
    // The tracking number links to the courier's page, where it is shipped and on the timeline.
    const tracking = shipped.getByRole('link', { name: '1Z999AA10123456784' });
    await expect.poll(() => tracking.count()).toBe(2);
    expect(await tracking.first().getAttribute('href')).toBe('https://www.ups.com/track?tracknum=1Z999AA10123456784');
    await expect.poll(() => shipped.getByText('UPS', { exact: true }).isVisible()).toBe(true);
    expect(await shipped.textContent()).toContain('Reason: Returned by the courier');
    await expect.poll(() => shipped.getByText('Case submitted', { exact: true }).isVisible()).toBe(true);
    // Newest first, so the latest change is at the top; the reader may turn it round.
    const order = async () => {
      const text = (await shipped.getByLabel('Timeline').textContent()) ?? '';
      return text.indexOf('In Progress → Dispatched') < text.indexOf('Case submitted')
        ? 'newest first'
        : 'oldest first';
    };
    expect(await order()).toBe('newest first');
    await shipped.getByRole('switch', { name: 'Newest first' }).click({ force: true });
    await expect.poll(order).toBe('oldest first');
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'case-page-doctor');

    // Another doctor's case is not found, as on the API.
    const other = await createActiveDoctor();
    const stranger = await newPage(browser());
    await openSignedIn(stranger, other.username, other.password, `/cases/${submitted.CaseId}`);
    await expect.poll(() => stranger.getByRole('alert').filter({ hasText: 'Case not found' }).isVisible()).toBe(true);
  });
});
