import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiLogin, createActiveDoctor, createStaff } from '../helpers/api.ts';
import {
  expectNoSeriousA11yViolations,
  newPage,
  openSignedIn,
  screenshots,
  settle,
  useBrowser,
} from '../helpers/browser.ts';
import { submitCase } from '../helpers/cases.ts';
import { approvePlan, sendProgressScan, uploadProgressPlan } from '../helpers/progress.ts';
import { expectToast } from '../helpers/shown.ts';
import { scaled } from '../helpers/test-time.ts';

/**
 * Issue 42, the lab's side (docs/decisions/progress-scans.md § Off track on the lists): a case
 * whose latest progress scan has a tooth off track carries an "Off track" badge on the
 * dashboard's list, at 1280 px and in the 375 px cards, and the "Off track only" filter, kept in
 * the address, shows such cases alone, to the lab and to the case's doctor. The plan and the
 * scan are the server tests' own generated ones, fitted by the portal's background job.
 */

const browser = useBrowser();
// The fit runs in the server's queue on a machine the rest of the run keeps busy.
vi.setConfig({ expect: { poll: { timeout: scaled(20_000) } }, testTimeout: scaled(300_000) });
const fitWait = { timeout: scaled(120_000) };

let doctor: Awaited<ReturnType<typeof createActiveDoctor>>;
let staff: Awaited<ReturnType<typeof createStaff>>;
let offTrack: { CaseId: number; TrackingNo: string };
let onTrack: { CaseId: number; TrackingNo: string };
let sendScan: () => Promise<() => Promise<string>>;

beforeAll(async () => {
  doctor = await createActiveDoctor();
  staff = await createStaff([1]);
  const doctorToken = await apiLogin(doctor.username, doctor.password);
  const staffToken = await apiLogin(staff.username, staff.password);
  offTrack = await submitCase(doctorToken);
  onTrack = await submitCase(doctorToken);
  const planId = await uploadProgressPlan(offTrack.CaseId, staffToken);
  // Approved once the plan is checked (its movements measured), then a scan with a tooth stuck.
  const approve = approvePlan(offTrack.CaseId, planId, doctorToken);
  await vi.waitFor(async () => expect(await approve()).toBe('approved'), { ...fitWait, interval: 500 });
  // Sent once the lab's dashboard is open: the badge comes with the fit's live event.
  sendScan = () => sendProgressScan(offTrack.CaseId, doctorToken);
}, scaled(300_000));

const rowOf = (page: Page, trackingNo: string) => page.getByRole('row').filter({ hasText: trackingNo });
const badgeIn = (page: Page, trackingNo: string) => rowOf(page, trackingNo).getByText('Off track', { exact: true });
const offTrackSwitch = (page: Page) => page.getByRole('switch', { name: 'Off track only' });

describe('Off track on the case lists', () => {
  it('the lab sees the badge come with the fit, at 1280 and 375 px, and filters off-track cases in the address', async () => {
    const page = await newPage(browser());
    // The doctor's cases only, so other tests' cases do not push these off the first page.
    await openSignedIn(page, staff.username, staff.password, `/dashboard?doctor=${doctor.userId}`);
    await expect.poll(() => rowOf(page, offTrack.TrackingNo).isVisible()).toBe(true);
    await settle(page);
    expect(await badgeIn(page, offTrack.TrackingNo).count()).toBe(0);
    const fitted = await sendScan();
    await expect.poll(fitted, fitWait).toBe('done');
    // No reload: the fit's live event refreshes the list.
    await expect.poll(() => badgeIn(page, offTrack.TrackingNo).isVisible()).toBe(true);
    await expect.poll(() => rowOf(page, onTrack.TrackingNo).isVisible()).toBe(true);
    expect(await badgeIn(page, onTrack.TrackingNo).count()).toBe(0);

    await offTrackSwitch(page).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('offTrack')).toBe('true');
    await expect.poll(() => rowOf(page, onTrack.TrackingNo).count()).toBe(0);
    expect(await badgeIn(page, offTrack.TrackingNo).isVisible()).toBe(true);
    await settle(page);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'off-track-lab');

    // A phone: the case's card carries the badge; the filter waits behind Filters, counted there.
    await page.setViewportSize({ width: 375, height: 800 });
    await expect.poll(() => badgeIn(page, offTrack.TrackingNo).isVisible()).toBe(true);
    const filters = page.getByRole('button', { name: /^Filters/ });
    await expect.poll(() => filters.textContent()).toBe('Filters (2)');
    await filters.click();
    await expect.poll(() => offTrackSwitch(page).isChecked()).toBe(true);
    await screenshots(page, 'off-track-lab-phone-filters');
    // Reload keeps the filter: it is the address's.
    await page.reload();
    await expect.poll(() => badgeIn(page, offTrack.TrackingNo).isVisible()).toBe(true);
    expect(await rowOf(page, onTrack.TrackingNo).count()).toBe(0);
    await settle(page);
    await expectNoSeriousA11yViolations(page);
  });

  it("the case's doctor finds it with the same filter, the badge on their own list", async () => {
    const page = await newPage(browser());
    await openSignedIn(page, doctor.username, doctor.password, '/dashboard');
    await expect.poll(() => badgeIn(page, offTrack.TrackingNo).isVisible()).toBe(true);
    await expect.poll(() => rowOf(page, onTrack.TrackingNo).isVisible()).toBe(true);
    await offTrackSwitch(page).click();
    await expect.poll(() => rowOf(page, onTrack.TrackingNo).count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('offTrack')).toBe('true');
    await settle(page);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'off-track-doctor');
  });

  it("the lab chooses how it hears of progress scans among its e-mail preferences; a doctor's page has no such choice", async () => {
    const page = await newPage(browser());
    await openSignedIn(page, staff.username, staff.password, '/profile');
    const section = page.getByRole('region', { name: 'E-mail preferences' });
    const progress = section.getByRole('radiogroup', { name: /^Progress scans/ });
    await expect.poll(() => progress.getByRole('radio', { name: 'Immediately' }).isChecked()).toBe(true);
    await progress.getByRole('radio', { name: 'In the daily digest' }).check();
    await section.getByRole('button', { name: 'Save e-mail preferences' }).click();
    await expectToast(page, 'E-mail preferences saved');
    await settle(page);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'off-track-lab-mail-preferences');
    await page.reload();
    await expect.poll(() => progress.getByRole('radio', { name: 'In the daily digest' }).isChecked()).toBe(true);

    const doctorPage = await newPage(browser());
    await openSignedIn(doctorPage, doctor.username, doctor.password, '/profile');
    const doctorSection = doctorPage.getByRole('region', { name: 'E-mail preferences' });
    await expect.poll(() => doctorSection.getByRole('radiogroup', { name: /^Messages/ }).isVisible()).toBe(true);
    expect(await doctorSection.getByRole('radiogroup', { name: /^Progress scans/ }).count()).toBe(0);
  });
});
