import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiCall, apiLogin, createActiveDoctor, createStaff, portalApi } from '../helpers/api.ts';
import { useBrowser, newPage, settle, openSignedIn } from '../helpers/browser.ts';
import { submitCase } from '../helpers/cases.ts';
import { giveApprovedPlan } from '../helpers/plans.ts';
import { scaled } from '../helpers/test-time.ts';

const browser = useBrowser();
let doctor: Awaited<ReturnType<typeof createActiveDoctor>>;
let staffToken: string;
let doctorToken: string;
let submitted: { CaseId: number; TrackingNo: string };

// The change travels API -> event stream -> refetch on a loaded machine: polls get time.
vi.setConfig({ expect: { poll: { timeout: scaled(20_000) } } });

beforeAll(async () => {
  doctor = await createActiveDoctor();
  const staff = await createStaff([1]);
  staffToken = await apiLogin(staff.username, staff.password);
  doctorToken = await apiLogin(doctor.username, doctor.password);
  submitted = await submitCase(doctorToken);
});

const tile = (page: Page, label: string) =>
  page.getByRole('group', { name: 'Filter cases by status' }).getByRole('button', { name: new RegExp(`^${label}`) });

describe('live updates', () => {
  it("a doctor's dashboard, tiles and open case follow status changes made by staff, without a reload", async () => {
    const page = await newPage(browser());
    await openSignedIn(page, doctor.username, doctor.password);
    await expect.poll(() => tile(page, 'In Progress').textContent()).toMatch(/In Progress\s*0$/);
    await settle(page);
    // A reload would drop this mark: the page must update in place.
    await page.evaluate(() => ((window as unknown as { liveMark: number }).liveMark = 1));
    const isSamePage = () => page.evaluate(() => (window as unknown as { liveMark?: number }).liveMark === 1);

    await apiCall('PUT', `/case/status/${submitted.CaseId}`, { token: staffToken, json: { status: 'inprogress' } });
    await expect.poll(() => tile(page, 'In Progress').textContent()).toMatch(/In Progress\s*1$/);
    await expect
      .poll(() => page.getByRole('row').filter({ hasText: submitted.TrackingNo }).textContent())
      .toMatch(/In Progress/);
    expect(await isSamePage()).toBe(true);

    // The open case page: its timeline follows the next change.
    await page.getByRole('row').filter({ hasText: submitted.TrackingNo }).getByRole('button', { name: 'View' }).click();
    const history = page.getByRole('region', { name: 'Status' });
    await expect.poll(() => history.getByText('New → In Progress', { exact: true }).isVisible()).toBe(true);
    await settle(page);
    // Dispatch needs the doctor's approved plan (docs/decisions/plans.md § Treatment plans).
    await giveApprovedPlan(portalApi(), staffToken, doctorToken, submitted.CaseId);
    await apiCall('PUT', `/case/status/${submitted.CaseId}`, {
      token: staffToken,
      json: { status: 'dispatched', courier: 'DHL', trackingNumber: 'JD0146' },
    });
    await expect.poll(() => history.getByText('In Progress → Dispatched', { exact: true }).isVisible()).toBe(true);
    expect(await isSamePage()).toBe(true);
  });
});
