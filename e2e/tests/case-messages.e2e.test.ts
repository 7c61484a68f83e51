import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiCall, apiLogin, createActiveDoctor, createStaff } from '../helpers/api.ts';
import {
  expectNoSeriousA11yViolations,
  useBrowser,
  newPage,
  screenshots,
  settle,
  openSignedIn,
  viewingCopyWait,
} from '../helpers/browser.ts';
import { canvasColours } from '../helpers/canvas-colours.ts';
import { asciiStl, pngPhoto, submitCase } from '../helpers/cases.ts';
import { scaled } from '../helpers/test-time.ts';

const browser = useBrowser();
let doctor: Awaited<ReturnType<typeof createActiveDoctor>>;
let staff: Awaited<ReturnType<typeof createStaff>>;
let submitted: { CaseId: number; TrackingNo: string };

// A message travels API -> event stream -> refetch on a loaded machine: polls get time.
vi.setConfig({ expect: { poll: { timeout: scaled(20_000) } } });

beforeAll(async () => {
  doctor = await createActiveDoctor();
  staff = await createStaff([1]);
  submitted = await submitCase(await apiLogin(doctor.username, doctor.password));
});

const conversation = (page: Page) => page.getByRole('region', { name: 'Messages' });
const dashboardLink = (page: Page) =>
  page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: /^Dashboard/ });
const caseRow = (page: Page) => page.getByRole('row').filter({ hasText: submitted.TrackingNo });

async function write(page: Page, text: string) {
  await conversation(page).getByRole('textbox', { name: 'Message' }).fill(text);
  await conversation(page).getByRole('button', { name: 'Send' }).click();
}

describe('case messages', () => {
  it('staff write, the doctor sees badges live, reads, replies with a file, and staff see it live', async () => {
    const doctorPage = await newPage(browser());
    await openSignedIn(doctorPage, doctor.username, doctor.password);
    await expect.poll(() => caseRow(doctorPage).count()).toBe(1);
    expect(await dashboardLink(doctorPage).textContent()).toBe('Dashboard');
    await settle(doctorPage);

    const staffPage = await newPage(browser());
    await openSignedIn(staffPage, staff.username, staff.password, `/cases/${submitted.CaseId}`);
    await expect
      .poll(() => conversation(staffPage).getByText('No messages yet', { exact: false }).isVisible())
      .toBe(true);
    await write(staffPage, 'Please send a new upper scan.');
    await expect
      .poll(() =>
        conversation(staffPage).getByRole('listitem').filter({ hasText: 'Please send a new upper scan.' }).count(),
      )
      .toBe(1);

    // The doctor's menu and list show it without a reload.
    await expect.poll(() => dashboardLink(doctorPage).textContent()).toBe('Dashboard1 unread');
    await expect.poll(() => caseRow(doctorPage).getByText('1 unread', { exact: false }).count()).toBe(1);

    await settle(doctorPage);
    await screenshots(doctorPage, 'case-messages-unread');
    // A second tab of the same browser shows the same badge...
    const otherTab = await doctorPage.context().newPage();
    await otherTab.goto('/dashboard');
    await expect.poll(() => dashboardLink(otherTab).textContent()).toBe('Dashboard1 unread');
    await caseRow(doctorPage).getByRole('button', { name: 'View' }).click();
    const received = conversation(doctorPage).getByRole('listitem', { name: /^Lab message from Sam Staff/ });
    await expect.poll(() => received.textContent()).toContain('Please send a new upper scan.');
    await expect.poll(() => dashboardLink(doctorPage).textContent()).toBe('Dashboard');
    // ...and drops it when the message is read in the first, without a reload.
    await expect.poll(() => dashboardLink(otherTab).textContent()).toBe('Dashboard');
    await expect.poll(() => caseRow(otherTab).getByText('1 unread', { exact: false }).count()).toBe(0);
    await otherTab.close();

    await conversation(doctorPage).getByRole('textbox', { name: 'Message' }).fill('Here it is.');
    await conversation(doctorPage)
      .locator('input[type="file"]')
      .setInputFiles({
        name: 'new-scan.png',
        mimeType: 'image/png',
        buffer: Buffer.from(await pngPhoto()),
      });
    await conversation(doctorPage).getByRole('button', { name: 'Send' }).click();
    const reply = conversation(doctorPage).getByRole('listitem', { name: /^Doctor message from Ada Lovelace/ });
    await expect.poll(() => reply.getByRole('link', { name: /new-scan\.png/ }).count()).toBe(1);
    await expect.poll(() => conversation(doctorPage).getByRole('textbox', { name: 'Message' }).inputValue()).toBe('');

    // Staff see the reply on the open case, live.
    const staffReply = conversation(staffPage).getByRole('listitem', { name: /^Doctor message from Ada Lovelace/ });
    await expect.poll(() => staffReply.textContent()).toContain('Here it is.');
    const link = staffReply.getByRole('link', { name: /new-scan\.png/ });
    expect(await link.getAttribute('href')).toMatch(/^\/api\/case\/message_files\/\d+\/new-scan\.png$/);
    // And the timeline lists both messages.
    await expect
      .poll(() => staffPage.getByRole('region', { name: 'Status' }).getByText('Message from the doctor').count())
      .toBe(1);

    await settle(doctorPage);
    await expectNoSeriousA11yViolations(doctorPage);
    await screenshots(doctorPage, 'case-messages');
  });

  it("opens a message's STL in 3D from its viewing copy, not the original", async () => {
    const form = new FormData();
    form.append('text', 'A new upper scan, with the bite corrected.');
    form.append('files', new Blob([asciiStl()]), 'rescan.stl');
    const sent = await apiCall<{ attachments: { url: string }[] }>('POST', `/case/${submitted.CaseId}/messages`, {
      token: await apiLogin(doctor.username, doctor.password),
      form,
    });
    const fileId = sent.attachments[0]!.url.split('/').at(-2);
    const page = await newPage(browser());
    const fileRequests: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/case\/message[-_]file/.test(request.url())) fileRequests.push(new URL(request.url()).pathname);
    });
    await openSignedIn(page, staff.username, staff.password, `/cases/${submitted.CaseId}`);
    // Made by the server's background job after the message was stored.
    await expect
      .poll(
        async () =>
          ((await (await page.request.get(`/api/case/message-file-views/${fileId}`)).json()) as { state: string })
            .state,
        viewingCopyWait,
      )
      .toBe('ready');
    const message = conversation(page).getByRole('listitem').filter({ hasText: 'with the bite corrected' });
    await message.getByRole('button', { name: 'View in 3D: rescan.stl' }).click();
    const dialog = page.getByRole('dialog', { name: '3D scan viewer' });
    const canvas = dialog.getByRole('img', { name: '3D view of the rescan.stl scan' });
    await expect.poll(() => canvas.isVisible()).toBe(true);
    // The first frame is drawn once the shaders have compiled (in software on this machine: a while).
    await expect
      .poll(async () => (await canvasColours(await canvas.screenshot())).upper, { timeout: scaled(60_000) })
      .toBeGreaterThan(100);
    await expect.poll(() => dialog.getByText('rescan.stl', { exact: true }).isVisible()).toBe(true);
    expect(await dialog.getByText(/Showing the original/).count()).toBe(0);
    expect(fileRequests).toContain(`/api/case/message-file-views/${fileId}/mesh.glb`);
    expect(fileRequests.filter((url) => url.startsWith('/api/case/message_files/'))).toEqual([]);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'case-messages-stl-viewer');

    await dialog.getByRole('button', { name: 'Close 3D viewer' }).click();
    await expect.poll(() => page.getByRole('img', { name: /3D view/ }).count()).toBe(0);
    await settle(page);
    await screenshots(page, 'case-messages-stl');
  });

  it('refuses a blank message in the composer, with the reason under the field', async () => {
    const page = await newPage(browser());
    await openSignedIn(page, doctor.username, doctor.password, `/cases/${submitted.CaseId}`);
    await conversation(page).getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => conversation(page).getByText('Write a message or attach a file').isVisible()).toBe(true);
  });
});
