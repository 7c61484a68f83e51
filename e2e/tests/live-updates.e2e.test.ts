import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiCall, apiLogin, createActiveDoctor, createStaff } from '../helpers/api.ts';
import { launchBrowser, newPage, settle, signIn } from '../helpers/browser.ts';
import { submitCase } from '../helpers/cases.ts';

let browser: Browser;
let doctor: Awaited<ReturnType<typeof createActiveDoctor>>;
let staffToken: string;
let submitted: { CaseId: number; TrackingNo: string };

// The change travels API -> event stream -> refetch on a loaded machine: polls get time.
vi.setConfig({ expect: { poll: { timeout: 20_000 } } });

beforeAll(async () => {
  browser = await launchBrowser();
  doctor = await createActiveDoctor();
  const staff = await createStaff([1]);
  staffToken = await apiLogin(staff.username, staff.password);
  submitted = await submitCase(await apiLogin(doctor.username, doctor.password));
});
afterAll(() => browser.close());

const tile = (page: Page, label: string) =>
  page.getByRole('group', { name: 'Filter cases by status' }).getByRole('button', { name: new RegExp(`^${label}`) });

describe('live updates', () => {
  it("a doctor's dashboard follows a status change made by staff, without a reload", async () => {
    const page = await newPage(browser);
    await signIn(page, doctor.username, doctor.password);
    await expect.poll(() => tile(page, 'In Progress').textContent()).toMatch(/In Progress\s*0$/);
    await settle(page);
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => navigations.push(frame.url()));

    await apiCall('PUT', `/case/status/${submitted.CaseId}`, { token: staffToken, json: { status: 'inprogress' } });
    await expect.poll(() => tile(page, 'In Progress').textContent()).toMatch(/In Progress\s*1$/);
    await expect
      .poll(() => page.getByRole('row').filter({ hasText: submitted.TrackingNo }).textContent())
      .toMatch(/In Progress/);
    expect(navigations).toEqual([]);
  });
});
