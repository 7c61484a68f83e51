import type { PlanVersion } from '@portal/contract';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
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
import { submitCase } from '../helpers/cases.ts';
import { chooseStatus, statusDialog } from '../helpers/case-status.ts';
import { stageFiles, zipOf } from '../helpers/plans.ts';
import { expectToast } from '../helpers/shown.ts';
import { scaled } from '../helpers/test-time.ts';

/**
 * Issue 9, treatment plans, the whole loop: the lab uploads v1, the doctor requests changes,
 * the lab writes to the doctor and uploads v2 as a ZIP, the doctor plays it in the 3D viewer and approves, the lab
 * dispatches; the doctor's dashboard, left open in its own browser context, follows live.
 */

const browser = useBrowser();
let doctor: Awaited<ReturnType<typeof createActiveDoctor>>;
let staff: Awaited<ReturnType<typeof createStaff>>;
let submitted: { CaseId: number; TrackingNo: string };

// Changes travel API -> event stream -> refetch on a loaded machine; 3D models load in a software renderer.
vi.setConfig({ expect: { poll: { timeout: scaled(20_000) } }, testTimeout: scaled(240_000) });

beforeAll(async () => {
  doctor = await createActiveDoctor();
  staff = await createStaff([1]);
  // The submission itself is covered by case-form.e2e.test.ts; here it is the starting point.
  // No attachment on 8: version 2's attachment there is a finding against the prescription.
  submitted = await submitCase(await apiLogin(doctor.username, doctor.password), undefined, { noAttachment: '8' });
  // Teeth are shown in each reader's notation (docs/decisions/tooth-notation.md): Universal, as this test reads them.
  for (const user of [doctor, staff]) {
    const token = await apiLogin(user.username, user.password);
    await apiCall('PUT', '/account/tooth-notation', { token, json: { toothNotation: 'Universal' } });
  }
});

const tile = (page: Page, label: string) =>
  page.getByRole('group', { name: 'Filter cases by status' }).getByRole('button', { name: new RegExp(`^${label}`) });
const planRegion = (page: Page) => page.getByRole('region', { name: 'Treatment Plan' });
const version = (page: Page, n: number) => planRegion(page).getByRole('listitem', { name: `Version ${n}` });

/** The paths of the requests `page` makes from now on that match `pattern`. */
function requestsTo(page: Page, pattern: RegExp): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (pattern.test(request.url())) seen.push(new URL(request.url()).pathname);
  });
  return seen;
}

/** Waits until the server's background job has settled the copy of plan version `n` for the viewer; its state per arch. */
async function planCopies(page: Page, n: number, caseId = submitted.CaseId): Promise<Record<string, string>> {
  const plans = (await (await page.request.get(`/api/case/${caseId}/plans`)).json()) as PlanVersion[];
  const { planId } = plans.find((plan) => plan.version === n)!;
  let states: Record<string, string> = {};
  await expect
    .poll(async () => {
      const answer = (await (await page.request.get(`/api/case/${caseId}/plans/${planId}/views`)).json()) as Record<
        string,
        { state: string } | null
      >;
      states = Object.fromEntries(Object.entries(answer).map(([arch, view]) => [arch, view?.state ?? 'none']));
      return Object.values(states).includes('pending');
    }, viewingCopyWait)
    .toBe(false);
  return states;
}

async function openCase(page: Page) {
  await page.goto(`/cases/${submitted.CaseId}`);
  await expect.poll(() => page.getByRole('heading', { name: `Case ${submitted.TrackingNo}` }).isVisible()).toBe(true);
  await settle(page);
}

/**
 * Where the canvas shows a solid tooth, in CSS pixels from its top left: the points deepest inside
 * the teeth first (farthest from the grey background, the ghosted blue arch and any edge), at
 * least 30 px apart. The upper arch is drawn a grey only a little darker than the background.
 */
async function toothPoints(canvas: Locator): Promise<{ x: number; y: number }[]> {
  const box = (await canvas.boundingBox())!;
  const { data, info } = await sharp(await canvas.screenshot())
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  // Chamfer distance (1 a step) from each tooth pixel to the nearest pixel that is not one.
  const depth = new Float32Array(width * height);
  for (let i = 0; i < width * height; i++) {
    const [red, green, blue] = [data[i * channels]!, data[i * channels + 1]!, data[i * channels + 2]!];
    const fromBackground = Math.abs(red - 248) + Math.abs(green - 249) + Math.abs(blue - 250);
    depth[i] = fromBackground > 12 && blue - red < 20 ? Infinity : 0;
  }
  const at = (x: number, y: number) => (x < 0 || y < 0 || x >= width || y >= height ? 0 : depth[y * width + x]!);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (depth[y * width + x])
        depth[y * width + x] = Math.min(depth[y * width + x]!, at(x - 1, y) + 1, at(x, y - 1) + 1);
  for (let y = height - 1; y >= 0; y--)
    for (let x = width - 1; x >= 0; x--)
      if (depth[y * width + x])
        depth[y * width + x] = Math.min(depth[y * width + x]!, at(x + 1, y) + 1, at(x, y + 1) + 1);
  const inside = [...depth.keys()].filter((i) => depth[i]! >= 4).sort((a, b) => depth[b]! - depth[a]!);
  const points: { x: number; y: number }[] = [];
  for (const i of inside) {
    const point = { x: i % width, y: Math.floor(i / width) };
    if (points.every((other) => Math.hypot(other.x - point.x, other.y - point.y) >= 30)) points.push(point);
    if (points.length === 10) break;
  }
  return points.map(({ x, y }) => ({ x: ((x + 0.5) * box.width) / width, y: ((y + 0.5) * box.height) / height }));
}

/** How many pixels of the canvas show an open comment's red pin (the viewer's pin colour, #c92a2a). */
async function redPinPixels(canvas: Locator): Promise<number> {
  const { data, info } = await sharp(await canvas.screenshot())
    .raw()
    .toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let i = 0; i < data.length; i += info.channels)
    if (Math.abs(data[i]! - 201) < 20 && Math.abs(data[i + 1]! - 42) < 20 && Math.abs(data[i + 2]! - 42) < 20) count++;
  return count;
}

/**
 * Clicks a tooth until `isDone` (the click's outcome), aiming where the screenshot shows one.
 * It waits for outcomes, not for a count of clicks to run out: for the viewer to take a pick
 * (its crosshair, once the chosen tool has rendered), for teeth on the canvas, then after each
 * click for its outcome; a click that had none after a while is followed by one on the next
 * tooth, until a deadline.
 */
async function clickUntil(page: Page, canvas: Locator, isDone: () => Promise<boolean>) {
  await expect.poll(() => canvas.evaluate((element) => getComputedStyle(element).cursor)).toBe('crosshair');
  const deadline = Date.now() + scaled(60_000);
  for (let click = 0; ; click++) {
    const points = await toothPoints(canvas);
    const point = points[click % Math.max(1, points.length)];
    if (point) {
      const box = (await canvas.boundingBox())!;
      await page.mouse.click(box.x + point.x, box.y + point.y);
      const answerBy = Date.now() + scaled(5_000);
      do {
        if (await isDone()) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      } while (Date.now() < answerBy);
    }
    if (Date.now() > deadline)
      throw new Error(`no click on a tooth had its outcome in ${scaled(60_000)} ms (${points.length} teeth seen)`);
    if (!point) await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * The lab's upload form: stage counts, one IPR contact, attachment teeth (23's placed at stage 1), notes, and the files dropped;
 * `beforeUpload` looks at the form filled in.
 */
async function uploadInTheForm(
  page: Page,
  upper: number,
  lower: number,
  files: { name: string; mimeType: string; buffer: Buffer }[],
  checkScreen = false,
  {
    attachments = '13, 23:1',
    beforeUpload,
  }: { attachments?: string; beforeUpload?: (form: Locator) => Promise<void> } = {},
) {
  await planRegion(page).getByRole('button', { name: 'Upload a new version' }).click();
  const form = page.getByRole('form', { name: 'Upload a plan version' });
  await form.getByRole('textbox', { name: 'Upper stages' }).fill(String(upper));
  await form.getByRole('textbox', { name: 'Lower stages' }).fill(String(lower));
  const contact = form.getByRole('textbox', { name: 'IPR 1 contact' });
  // A later version starts from the last one's IPR: its contact is there already.
  if ((await contact.count()) === 0) await form.getByRole('button', { name: 'Add IPR contact' }).click();
  await contact.fill('11-21');
  await form.getByRole('textbox', { name: 'Attachment teeth' }).fill(attachments);
  await form.getByRole('textbox', { name: 'Notes' }).fill('Attachments on the canines.');
  await form.locator('input[type=file]').setInputFiles(files);
  await expect
    .poll(() => form.getByText(files.length === 1 ? files[0]!.name : `${files.length} files selected`).isVisible())
    .toBe(true);
  if (checkScreen) {
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'plan-upload-form');
  }
  await beforeUpload?.(form);
  await form.getByRole('button', { name: 'Upload version' }).click();
}

describe('Treatment plan review', () => {
  it('goes from upload to changes, a ZIP version, the 3D viewer, approval and dispatch; the doctor follows live', async () => {
    // The doctor's dashboard, left open in its own context for the whole loop.
    const dashboard = await newPage(browser());
    await openSignedIn(dashboard, doctor.username, doctor.password);
    await expect.poll(() => tile(dashboard, 'Awaiting your approval').textContent()).toMatch(/approval\s*0$/);
    await settle(dashboard);
    await dashboard.evaluate(() => ((window as unknown as { liveMark: number }).liveMark = 1));
    const isSamePage = () => dashboard.evaluate(() => (window as unknown as { liveMark?: number }).liveMark === 1);

    // The lab uploads version 1 as loose STLs.
    const lab = await newPage(browser());
    await openSignedIn(lab, staff.username, staff.password);
    await openCase(lab);
    await expect
      .poll(() => planRegion(lab).getByText('No treatment plan has been uploaded yet.').isVisible())
      .toBe(true);
    const v1Files = stageFiles(2, 2).map((file) => ({ name: file.name, mimeType: 'model/stl', buffer: file.data }));
    await uploadInTheForm(lab, 2, 2, v1Files, true);
    await expectToast(lab, 'Plan version 1 uploaded');
    await expect.poll(() => version(lab, 1).textContent()).toMatch(/Awaiting approval/);

    // The doctor's dashboard: the tile counts it, and filters by it in the address.
    await expect.poll(() => tile(dashboard, 'Awaiting your approval').textContent()).toMatch(/approval\s*1$/);
    expect(await isSamePage()).toBe(true);
    const review = await newPage(browser());
    await openSignedIn(review, doctor.username, doctor.password);
    await tile(review, 'Awaiting your approval').click();
    await review.waitForURL('**/dashboard?plan=awaiting_approval');
    await expect.poll(() => review.getByRole('row').filter({ hasText: submitted.TrackingNo }).isVisible()).toBe(true);
    await review.reload();
    await expect
      .poll(() => tile(review, 'Awaiting your approval').getAttribute('aria-pressed'), { timeout: scaled(20_000) })
      .toBe('true');
    await review
      .getByRole('row')
      .filter({ hasText: submitted.TrackingNo })
      .getByRole('button', { name: 'View' })
      .click();
    await review.waitForURL(`**/cases/${submitted.CaseId}`);
    await settle(review);

    // The doctor pins a comment on a tooth of version 1 in the viewer (a draft, theirs alone).
    await version(review, 1).getByRole('button', { name: 'View version 1 in 3D' }).click();
    const firstViewer = review.getByRole('dialog', { name: 'Treatment plan version 1' });
    const firstCanvas = firstViewer.locator('[data-shown-stage]');
    await expect.poll(() => firstCanvas.getAttribute('data-shown-stage'), { timeout: scaled(60_000) }).toBe('0');
    expect(await redPinPixels(firstCanvas)).toBe(0);
    await firstViewer.getByRole('button', { name: 'Pin a comment' }).click();
    const newComment = firstViewer.getByRole('form', { name: 'New pinned comment' });
    await clickUntil(review, firstCanvas, () => newComment.isVisible());
    await newComment
      .getByRole('textbox', { name: /^Comment at stage 0, (upper|lower) arch/ })
      .fill('Less torque here.');
    await newComment.getByRole('button', { name: 'Save comment' }).click();
    const pinned = firstViewer.getByRole('list', { name: 'Pinned comments' });
    await expect.poll(() => pinned.textContent()).toMatch(/Less torque here\..*Draft: sent with your change request/);
    // The saved comment's pin is drawn on the model, at its point on the stage shown.
    await expect.poll(() => redPinPixels(firstCanvas)).toBeGreaterThan(100);
    // A second one at the last stage (the slider, by keyboard), numbered 2.
    const firstSlider = firstViewer.getByRole('slider', { name: 'Stage' });
    await firstSlider.focus();
    await review.keyboard.press('End');
    await expect.poll(() => firstCanvas.getAttribute('data-shown-stage')).toBe('2');
    await firstViewer.getByRole('button', { name: 'Pin a comment' }).click();
    await clickUntil(review, firstCanvas, () => newComment.isVisible());
    await newComment
      .getByRole('textbox', { name: /^Comment at stage 2, (upper|lower) arch/ })
      .fill('Keep this contact.');
    await newComment.getByRole('button', { name: 'Save comment' }).click();
    await expect.poll(() => pinned.getByRole('listitem').count()).toBe(2);
    await expectNoSeriousA11yViolations(review);
    await screenshots(review, 'plan-viewer-pinned-comment');
    await firstViewer.getByRole('button', { name: 'Close 3D viewer' }).click();
    await expect.poll(() => firstViewer.count()).toBe(0);

    // The doctor requests changes; the comment is required.
    await version(review, 1).getByRole('button', { name: 'Request changes' }).click();
    const changes = review.getByRole('dialog', { name: 'Request changes to version 1' });
    await changes.getByRole('button', { name: 'Request changes' }).click();
    await expect.poll(() => changes.getByText('A comment is required to request changes').isVisible()).toBe(true);
    await changes.getByRole('textbox', { name: 'What should change' }).fill('Less expansion on the upper arch.');
    await changes.getByRole('button', { name: 'Request changes' }).click();
    await expectToast(review, 'Changes requested on plan version 1');
    await expect.poll(() => version(review, 1).textContent()).toMatch(/Changes requested/);
    // The lab's open case page follows.
    await expect.poll(() => version(lab, 1).textContent()).toMatch(/Less expansion on the upper arch\./);
    // The timeline names the pinned comment the request sent.
    await expect
      .poll(() => lab.getByLabel('Timeline').textContent())
      .toMatch(/Pin 1 \(stage 0, tooth \d+\): Less torque here\.Pin 2 \(stage 2, tooth \d+\): Keep this contact\./);

    // The lab sees the pinned comment the change request sent, and marks it resolved.
    await version(lab, 1).getByRole('button', { name: 'View version 1 in 3D' }).click();
    const labViewer = lab.getByRole('dialog', { name: 'Treatment plan version 1' });
    const labPins = labViewer.getByRole('list', { name: 'Pinned comments' });
    await expect
      .poll(() => labPins.textContent(), { timeout: scaled(60_000) })
      .toMatch(/Less torque here\..*Sent to the lab/);
    await labViewer.getByRole('button', { name: 'Mark comment 1 resolved' }).click();
    await labViewer.getByRole('button', { name: 'Mark comment 2 resolved' }).click();
    await expect.poll(() => labPins.textContent()).toMatch(/Resolved by Sam Staff.*Resolved by Sam Staff/);
    // The lab replies on pin 1: a short thread under the comment, with its author.
    await labViewer.getByRole('button', { name: 'Reply to comment 1' }).click();
    await labViewer.getByRole('textbox', { name: 'Reply to comment 1' }).fill('Torque reduced in version 2.');
    await labViewer.getByRole('button', { name: 'Send reply' }).click();
    await expect
      .poll(() => labViewer.getByRole('list', { name: 'Replies to comment 1' }).textContent())
      .toMatch(/Torque reduced in version 2\.Sam Staff \(lab\)/);
    await labViewer.getByRole('button', { name: 'Close 3D viewer' }).click();

    // The lab writes to the doctor about it; the doctor's open case page shows the message live.
    const labConversation = lab.getByRole('region', { name: 'Messages' });
    await labConversation
      .getByRole('textbox', { name: 'Message' })
      .fill('Understood: version 2 keeps the upper arch narrower.');
    await labConversation.getByRole('button', { name: 'Send' }).click();
    await expect
      .poll(() =>
        review
          .getByRole('region', { name: 'Messages' })
          .getByRole('listitem', { name: /^Lab message from / })
          .filter({ hasText: 'version 2 keeps the upper arch narrower' })
          .count(),
      )
      .toBe(1);

    // The lab uploads version 2 as one ZIP, as planning software exports it, with an attachment
    // on 8, which the prescription leaves without: the form says so, and the lab gives a reason.
    const zip = zipOf(stageFiles(2, 2).map((file) => ({ ...file, name: `export/${file.name}` })));
    const finding = 'Attachment on 8; the prescription says no attachment on it';
    const reason = 'The 8 needs an attachment to derotate, as agreed by phone.';
    await uploadInTheForm(lab, 2, 2, [{ name: 'plan-v2.zip', mimeType: 'application/zip', buffer: zip }], false, {
      attachments: '11, 13, 23:1',
      beforeUpload: async (form) => {
        await expect.poll(() => form.getByText(finding).isVisible()).toBe(true);
        await form.getByRole('textbox', { name: 'Reason for departing from the prescription' }).fill(reason);
        await expectNoSeriousA11yViolations(lab);
        await screenshots(lab, 'plan-upload-findings');
      },
    });
    await expectToast(lab, 'Plan version 2 uploaded');
    await expect.poll(() => version(review, 2).textContent()).toMatch(/Awaiting approval/);
    expect(await version(review, 1).textContent()).toMatch(/Superseded/);
    // A replaced version offers no patient links.
    expect(await version(review, 1).getByRole('button', { name: 'Patient links' }).count()).toBe(0);

    // The doctor opens the 3D viewer on the plan's copy (one small file per arch, made in the
    // background after the upload): stage 0 first, the slider and play move through the stages.
    expect(await planCopies(review, 2)).toEqual({ upper: 'ready', lower: 'ready' });
    // Approve waits until this version has been opened in 3D on the page.
    const approve = version(review, 2).getByRole('button', { name: 'Approve' });
    expect(await approve.isDisabled()).toBe(true);
    expect(await version(review, 2).getByText('Open version 2 in 3D to approve it.').isVisible()).toBe(true);
    const planRequests = requestsTo(review, /\/api\/case\/(plan_files\/|\d+\/plans\/\d+\/views\/)/);
    await version(review, 2).getByRole('button', { name: 'View version 2 in 3D' }).click();
    const viewer = review.getByRole('dialog', { name: 'Treatment plan version 2' });
    const canvasBox = viewer.locator('[data-shown-stage]');
    await expect.poll(() => canvasBox.getAttribute('data-shown-stage'), { timeout: scaled(60_000) }).toBe('0');
    expect(planRequests.map((url) => url.replace(/^.*\/views\//, ''))).toEqual(['upper/mesh.glb', 'lower/mesh.glb']);
    expect(await viewer.getByText(/Showing the stage files/).count()).toBe(0);
    await expect
      .poll(() => viewer.getByRole('img', { name: '3D view of treatment plan version 2' }).isVisible())
      .toBe(true);
    expect(await viewer.getByRole('table', { name: 'Interproximal reduction per contact' }).textContent()).toContain(
      '11-21',
    );
    // Each tooth's movement, measured with the copy: three teeth an arch, a header row.
    const movements = viewer.getByRole('table', { name: /^From stage 0 to the last stage/ });
    await expect.poll(() => movements.getByRole('row').count(), { timeout: scaled(60_000) }).toBe(7);
    const slider = viewer.getByRole('slider', { name: 'Stage' });
    await slider.focus();
    await review.keyboard.press('ArrowRight');
    await expect.poll(() => canvasBox.getAttribute('data-shown-stage'), { timeout: scaled(60_000) }).toBe('1');
    await viewer.getByRole('button', { name: 'Play the stages' }).click();
    await expect.poll(() => canvasBox.getAttribute('data-shown-stage'), { timeout: scaled(60_000) }).toBe('2');
    await expect.poll(() => viewer.getByRole('button', { name: 'Play the stages' }).isVisible()).toBe(true);
    await viewer.getByRole('checkbox', { name: 'Upper arch' }).uncheck();
    await slider.focus();
    await review.keyboard.press('Home');
    await expect.poll(() => canvasBox.getAttribute('data-shown-stage')).toBe('0');
    await viewer.getByRole('checkbox', { name: 'Upper arch' }).check();
    // Stepping and playing moved the teeth already loaded: nothing more was fetched.
    expect(planRequests).toHaveLength(2);
    // Version 1's pinned comment, resolved by the lab, is listed beside version 2.
    expect(await viewer.getByRole('list', { name: 'Comments on version 1' }).textContent()).toMatch(
      /Less torque here\..*Resolved by Sam Staff.*Torque reduced in version 2\./,
    );
    // Measuring: two clicks on the teeth, the distance between them in millimetres.
    await viewer.getByRole('button', { name: 'Measure' }).click();
    await clickUntil(review, canvasBox, () => viewer.getByText('Click the second point.').isVisible());
    await clickUntil(review, canvasBox, () => viewer.getByText(/^Distance: \d+\.\d\d mm$/).isVisible());
    await viewer.getByRole('button', { name: 'Stop measuring' }).click();
    // Version 1 overlaid, with what changed: the same teeth moved the same way; the attachment on 11 is new.
    await viewer.getByLabel('Compare with another version').click();
    await review.getByRole('option', { name: 'Version 1' }).click();
    const changesFromV1 = viewer.getByRole('region', { name: 'Changes from version 1' });
    await expect
      .poll(() => changesFromV1.getByRole('listitem').allTextContents(), { timeout: scaled(60_000) })
      .toEqual(['Attachments added on 11', 'No tooth ends more than 0.1 mm from where version 1 put it']);
    // The movement map: the last stage, coloured, with its scale in millimetres.
    await viewer.getByRole('checkbox', { name: /^Movement map/ }).check();
    await expect.poll(() => canvasBox.getAttribute('data-shown-stage')).toBe('2');
    await expect
      .poll(() => viewer.getByRole('img', { name: /^Colour scale: blue 0 mm to red \d+\.\d\d mm$/ }).isVisible())
      .toBe(true);
    await expectNoSeriousA11yViolations(review);
    await screenshots(review, 'plan-viewer');
    await viewer.getByRole('button', { name: 'Close 3D viewer' }).click();
    await expect.poll(() => viewer.count()).toBe(0);

    // The doctor approves version 2 through the confirmation, with the keyboard: what it
    // approves is named, and the tick that it was reviewed in 3D is required.
    await expect.poll(() => approve.isEnabled()).toBe(true);
    await approve.focus();
    await review.keyboard.press('Enter');
    const confirm = review.getByRole('dialog', { name: 'Approve version 2' });
    // Its facts, then its finding against the prescription with the lab's reason.
    await expect
      .poll(() => confirm.getByRole('listitem').allTextContents())
      .toEqual([
        'Aligners: 2 upper, 2 lower',
        'IPR: 0.20 mm in all, at 1 contact',
        'Attachments on 3 teeth: 8, 6, 11 (stage 1)',
        `No attachment: ${finding}`,
      ]);
    expect(await confirm.getByText(`The lab's reason: ${reason}`).isVisible()).toBe(true);
    await confirm.getByRole('button', { name: 'Approve version 2' }).click();
    await expect.poll(() => confirm.getByText('Confirm that you have reviewed this plan in 3D').isVisible()).toBe(true);
    const acknowledge = confirm.getByRole('checkbox', {
      name: 'I have read the finding and approve this version despite it',
    });
    expect(
      await confirm
        .getByText('This version departs from the prescription or the limits: acknowledge the findings to approve it')
        .isVisible(),
    ).toBe(true);
    await review.mouse.move(0, 0);
    await expectNoSeriousA11yViolations(review);
    await screenshots(review, 'plan-approve-confirmation');
    await confirm.getByRole('checkbox', { name: 'I have reviewed this plan in 3D' }).focus();
    await review.keyboard.press('Space');
    await acknowledge.focus();
    await review.keyboard.press('Space');
    await confirm.getByRole('button', { name: 'Approve version 2' }).click();
    await expectToast(review, 'Plan version 2 approved');
    await expect.poll(() => version(review, 2).textContent()).toMatch(/Approved by .*, reviewed in 3D/);
    await expectNoSeriousA11yViolations(review);
    await screenshots(review, 'plan-panel-doctor');

    // The doctor makes a link for the patient, who opens it in a browser of their own, signed out:
    // the stages in 3D and their count under the first name's initial, nothing else of the case.
    await version(review, 2).getByRole('button', { name: 'Patient links' }).click();
    const links = review.getByRole('dialog', { name: 'Patient links to version 2' });
    await links.getByRole('button', { name: 'Make a link' }).click();
    const linkBox = links.getByRole('textbox', { name: 'The link (shown once: copy it now)' });
    await expect.poll(() => linkBox.inputValue()).toMatch(/\/p\/[A-Za-z0-9_-]{43}$/);
    const link = await linkBox.inputValue();
    await expect
      .poll(() => links.getByRole('list', { name: 'Links made' }).textContent())
      .toMatch(/Open until .*not opened yet/);
    await expectNoSeriousA11yViolations(review);
    await links.getByRole('button', { name: 'Close' }).click();
    const patient = await newPage(browser());
    await patient.goto(new URL(link).pathname);
    await expect.poll(() => patient.getByRole('heading', { name: 'Your treatment plan' }).isVisible()).toBe(true);
    await expect
      .poll(() => patient.getByText(/^Plan for P\. · version 2 · 2 upper and 2 lower aligner stages\./).isVisible())
      .toBe(true);
    const patientCanvas = patient.locator('[data-shown-stage]');
    await expect.poll(() => patientCanvas.getAttribute('data-shown-stage'), { timeout: scaled(60_000) }).toBe('0');
    const pageText = await patient.locator('body').textContent();
    // The patient's words, and the clinic to ask.
    expect(pageText).toMatch(/Questions about your plan\? Contact Smile Clinic at 123\./);
    expect(await patient.getByRole('button', { name: 'Upper teeth from below' }).isVisible()).toBe(true);
    expect(await patient.getByRole('checkbox', { name: 'Show your teeth today, faintly' }).isChecked()).toBe(true);
    expect(pageText).not.toMatch(/Occlusal|ghost|right-drag/i);
    expect(pageText).not.toContain('Patient');
    expect(pageText).not.toContain(submitted.TrackingNo);
    await patient.getByRole('button', { name: 'Play the stages' }).click();
    await expect.poll(() => patientCanvas.getAttribute('data-shown-stage'), { timeout: scaled(60_000) }).toBe('2');
    await expectNoSeriousA11yViolations(patient);
    await screenshots(patient, 'patient-link');

    // The lab dispatches with courier and tracking number.
    await expect.poll(() => version(lab, 2).textContent()).toMatch(/Approved/);
    await chooseStatus(lab, 'Dispatched');
    await statusDialog(lab).getByRole('textbox', { name: 'Courier' }).fill('DHL Express');
    await statusDialog(lab).getByRole('textbox', { name: 'Tracking number' }).fill('JD0146000777');
    await statusDialog(lab).getByRole('button', { name: 'Confirm' }).click();
    await expectToast(lab, 'Case status changed to Dispatched');
    await screenshots(lab, 'plan-panel-lab');

    // The dashboard left open followed every step without a reload.
    await expect.poll(() => tile(dashboard, 'Dispatched').textContent()).toMatch(/Dispatched\s*1$/);
    await expect.poll(() => tile(dashboard, 'Awaiting your approval').textContent()).toMatch(/approval\s*0$/);
    await expect
      .poll(() => dashboard.getByRole('row').filter({ hasText: submitted.TrackingNo }).textContent())
      .toMatch(/Dispatched/);
    expect(await isSamePage()).toBe(true);
  });

  it('shows the stage files, and says so, when no copy of the plan could be made for the viewer', async () => {
    const other = await createActiveDoctor();
    const theirCase = await submitCase(await apiLogin(other.username, other.password));
    const lab = await newPage(browser());
    await openSignedIn(lab, staff.username, staff.password);
    await lab.goto(`/cases/${theirCase.CaseId}`);
    await settle(lab);
    const reshaped = stageFiles(1, 0, { reshaped: true });
    await uploadInTheForm(
      lab,
      1,
      0,
      reshaped.map((file) => ({ name: file.name, mimeType: 'model/stl', buffer: file.data })),
    );
    await expectToast(lab, 'Plan version 1 uploaded');
    const page = await newPage(browser());
    await openSignedIn(page, other.username, other.password);
    await page.goto(`/cases/${theirCase.CaseId}`);
    await settle(page);
    expect(await planCopies(page, 1, theirCase.CaseId)).toEqual({ upper: 'failed', lower: 'none' });
    // Each stage file gets a viewing copy of its own instead, made by the same background jobs.
    const [plan] = (await (await page.request.get(`/api/case/${theirCase.CaseId}/plans`)).json()) as PlanVersion[];
    for (const file of plan!.stages) {
      await expect
        .poll(async () => {
          const view = await page.request.get(`/api/case/plan-file-views/${file.stageFileId}`);
          return ((await view.json()) as { state: string }).state;
        }, viewingCopyWait)
        .toBe('ready');
    }
    const stageRequests = requestsTo(page, /\/api\/case\/(plan_files|plan-file-views)\/.*\.(stl|glb)$/);
    await version(page, 1).getByRole('button', { name: 'View version 1 in 3D' }).click();
    const viewer = page.getByRole('dialog', { name: 'Treatment plan version 1' });
    await expect
      .poll(() => viewer.getByRole('status').filter({ hasText: 'Showing the stage files' }).textContent())
      .toBe('Showing the stage files: no lighter copy could be made of this plan.');
    const canvasBox = viewer.locator('[data-shown-stage]');
    await expect.poll(() => canvasBox.getAttribute('data-shown-stage'), { timeout: scaled(60_000) }).toBe('0');
    await viewer.getByRole('slider', { name: 'Stage' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => canvasBox.getAttribute('data-shown-stage'), { timeout: scaled(60_000) }).toBe('1');
    const stageIds = plan!.stages.map((file) => file.stageFileId);
    // Each stage's copy once, nothing else, in any order: the next stage is fetched ahead beside the
    // shown one (prefetchAhead), and under load its request has gone out first.
    expect([...stageRequests].sort()).toEqual(stageIds.map((id) => `/api/case/plan-file-views/${id}/mesh.glb`).sort());
    await screenshots(page, 'plan-viewer-stage-files');
  });
});
