import { endpoints, maxInboxItems, type InboxAnswer } from '@portal/contract';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiCall, apiLogin, createActiveDoctor, createStaff, portalApi } from '../helpers/api.ts';
import {
  expectNoSeriousA11yViolations,
  useBrowser,
  menuLink,
  newPage,
  openSignedIn,
  screenshots,
  settle,
} from '../helpers/browser.ts';
import { submitCase } from '../helpers/cases.ts';
import { stageFiles } from '../helpers/plans.ts';
import { expectToast } from '../helpers/shown.ts';
import { scaled } from '../helpers/test-time.ts';

const browser = useBrowser();
let doctor: Awaited<ReturnType<typeof createActiveDoctor>>;
let staff: Awaited<ReturnType<typeof createStaff>>;
let staffToken: string;
let submitted: { CaseId: number; TrackingNo: string };

// Changes travel API -> event stream or another tab -> refetch on a loaded machine: polls get time.
vi.setConfig({ expect: { poll: { timeout: scaled(20_000) } } });

beforeAll(async () => {
  doctor = await createActiveDoctor();
  staff = await createStaff([1]);
  staffToken = await apiLogin(staff.username, staff.password);
  submitted = await submitCase(await apiLogin(doctor.username, doctor.password));
});

function writeAsLab(text: string) {
  const form = new FormData();
  form.append('text', text);
  return apiCall('POST', `/case/${submitted.CaseId}/messages`, { token: staffToken, form });
}
async function uploadPlanAsLab() {
  const form = new FormData();
  form.append('summary', JSON.stringify({ upperStages: 1, lowerStages: 0, ipr: [], attachmentTeeth: [], notes: '' }));
  for (const file of stageFiles(1, 0)) form.append('stages', new Blob([new Uint8Array(file.data)]), file.name);
  await portalApi().call(
    endpoints.planUpload,
    { params: { caseId: submitted.CaseId }, body: form },
    { token: staffToken },
  );
}

/**
 * Hides or shows a tab, emulated in its page: headless Chromium reports every tab visible, so
 * the document is told its state, with the event a real switch of tabs fires.
 */
const setPageVisible = (page: Page, isVisible: boolean) =>
  page.evaluate((visible) => {
    Object.defineProperty(document, 'visibilityState', {
      configurable: true,
      get: () => (visible ? 'visible' : 'hidden'),
    });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => !visible });
    document.dispatchEvent(new Event('visibilitychange'));
  }, isVisible);

const waiting = (page: Page) => page.getByRole('list', { name: 'Waiting for you' }).getByRole('listitem');
const item = (page: Page, name: string) =>
  page.getByRole('listitem', { name: `${name}, case ${submitted.TrackingNo}` });

describe('the inbox', () => {
  it("lists the lab's message and the plan awaiting the doctor; reading in another tab takes the message away live", async () => {
    await writeAsLab('Please send a new upper scan.');
    await uploadPlanAsLab();
    const page = await newPage(browser());
    await openSignedIn(page, doctor.username, doctor.password, '/inbox');
    await expect.poll(() => waiting(page).count()).toBe(2);
    const message = item(page, 'Unread message');
    expect(await message.textContent()).toContain('Please send a new upper scan.');
    expect(await message.textContent()).toContain(submitted.TrackingNo);
    const plan = item(page, 'Plan version 1 awaits your approval');
    expect(await plan.getByRole('link').getAttribute('href')).toBe(`/cases/${submitted.CaseId}#plan`);
    await expect.poll(() => menuLink(page, 'Inbox').textContent()).toBe('Inbox2 waiting for you');
    await settle(page);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'inbox');

    // A second tab opens the message at the case's conversation, which reads it.
    const otherTab = await page.context().newPage();
    await otherTab.goto('/inbox');
    await item(otherTab, 'Unread message').getByRole('link').click();
    await otherTab.waitForURL(`**/cases/${submitted.CaseId}#messages`);
    await expect
      .poll(() => otherTab.getByRole('region', { name: 'Messages' }).getByText('Please send a new upper scan.').count())
      .toBe(1);
    // The first tab drops the item and its badge without a reload.
    await expect.poll(() => message.count()).toBe(0);
    await expect.poll(() => menuLink(page, 'Inbox').textContent()).toBe('Inbox1 waiting for you');

    // The case left open in a background tab: a new message shows there live but is read only
    // once the tab is shown (issue 41); meanwhile the inbox lists it.
    const reads: string[] = [];
    otherTab.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/messages/read')) reads.push(request.url());
    });
    await setPageVisible(otherTab, false);
    await writeAsLab('Is the old retainer still worn?');
    await expect
      .poll(() =>
        otherTab.getByRole('region', { name: 'Messages' }).getByText('Is the old retainer still worn?').count(),
      )
      .toBe(1);
    await expect.poll(() => item(page, 'Unread message').textContent()).toContain('Is the old retainer still worn?');
    await settle(otherTab);
    expect(reads).toEqual([]);
    expect(await item(page, 'Unread message').count()).toBe(1);
    await setPageVisible(otherTab, true);
    await expect.poll(() => item(page, 'Unread message').count()).toBe(0);
    expect(reads).toHaveLength(1);
    await otherTab.close();

    // A new message arrives live.
    await writeAsLab('And the bite registration, please.');
    await expect.poll(() => item(page, 'Unread message').textContent()).toContain('And the bite registration');
    await expect.poll(() => menuLink(page, 'Inbox').textContent()).toBe('Inbox2 waiting for you');
  });

  it('reads well on a phone', async () => {
    const page = await newPage(browser(), 375);
    await openSignedIn(page, doctor.username, doctor.password, '/inbox');
    await expect.poll(() => waiting(page).count()).toBeGreaterThan(0);
    await settle(page);
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectNoSeriousA11yViolations(page);
  });

  it('shows a hundred at a time, and the rest on Show more', async () => {
    for (let n = 1; n <= maxInboxItems + 1; n++) await writeAsLab(`Note ${n} of a long week`);
    const doctorToken = await apiLogin(doctor.username, doctor.password);
    const counts = await apiCall<InboxAnswer>('GET', '/inbox', { token: doctorToken });
    const total = counts.unreadMessages + counts.plansAwaiting;
    expect(total).toBeGreaterThan(maxInboxItems);

    const page = await newPage(browser());
    await openSignedIn(page, doctor.username, doctor.password, '/inbox');
    await expect.poll(() => waiting(page).count()).toBe(maxInboxItems);
    // The newest first: the last note written heads the list.
    expect(await waiting(page).first().textContent()).toContain(`Note ${maxInboxItems + 1} of a long week`);
    await page.getByRole('button', { name: 'Show more' }).click();
    await expect.poll(() => waiting(page).count()).toBe(total);
    await expect.poll(() => page.getByRole('button', { name: 'Show more' }).count()).toBe(0);
    await expectNoSeriousA11yViolations(page);
  });
});

describe('e-mail preferences', () => {
  it('are chosen per kind on the profile page, saved and shown again', async () => {
    const page = await newPage(browser());
    await openSignedIn(page, doctor.username, doctor.password, '/profile');
    const section = page.getByRole('region', { name: 'E-mail preferences' });
    const messages = section.getByRole('radiogroup', { name: /^Messages/ });
    const status = section.getByRole('radiogroup', { name: /^Case status/ });
    await expect.poll(() => messages.getByRole('radio', { name: 'Immediately' }).isChecked()).toBe(true);
    expect(await section.textContent()).toContain('always come at once and cannot be turned off');
    await messages.getByRole('radio', { name: 'In the daily digest' }).check();
    await status.getByRole('radio', { name: 'Off' }).check();
    await section.getByRole('button', { name: 'Save e-mail preferences' }).click();
    await expectToast(page, 'E-mail preferences saved');
    await settle(page);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'mail-preferences');

    await page.reload();
    await expect.poll(() => messages.getByRole('radio', { name: 'In the daily digest' }).isChecked()).toBe(true);
    expect(await status.getByRole('radio', { name: 'Off' }).isChecked()).toBe(true);
    expect(
      await section
        .getByRole('radiogroup', { name: /^Treatment plans/ })
        .getByRole('radio', { name: 'Immediately' })
        .isChecked(),
    ).toBe(true);
    const saved = await apiCall('GET', '/account/mail-preferences', {
      token: await apiLogin(doctor.username, doctor.password),
    });
    expect(saved).toMatchObject({ messages: 'digest', plans: 'immediate', status: 'off' });
  });
});
