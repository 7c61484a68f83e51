import { endpoints } from '@portal/contract';
import axe from 'axe-core';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiLogin, createActiveDoctor, createStaff, portalApi } from '../helpers/api.ts';
import path from 'node:path';
import {
  artifactsDir,
  expectNoSeriousA11yViolations,
  useBrowser,
  newPage,
  openSignedIn,
  screenshots,
  settle,
} from '../helpers/browser.ts';
import { canvasColours } from '../helpers/canvas-colours.ts';
import { submitCase } from '../helpers/cases.ts';
import { stageFiles, zipOf } from '../helpers/plans.ts';
import { expectToast, overlayShown } from '../helpers/shown.ts';
import { scaled } from '../helpers/test-time.ts';

/**
 * Issue 24, what a person notices: the plan form lists the stages of the files dropped
 * before sending them, and shows the upload's progress; the plan and scan viewers give focus
 * back to the button that opened them, keep the page's one banner and its heading order, and
 * have arch toggles and view presets used from the keyboard.
 */

const browser = useBrowser();
let staff: Awaited<ReturnType<typeof createStaff>>;
let submitted: { CaseId: number; TrackingNo: string };

vi.setConfig({ expect: { poll: { timeout: scaled(20_000) } }, testTimeout: scaled(180_000) });

beforeAll(async () => {
  const doctor = await createActiveDoctor();
  staff = await createStaff([1]);
  submitted = await submitCase(await apiLogin(doctor.username, doctor.password));
  // Version 1, through the API: the viewer's test opens it, the form's next version starts from its IPR and attachments.
  const form = new FormData();
  const summary = {
    upperStages: 2,
    lowerStages: 2,
    ipr: [{ contact: '11-21', amountMm: 0.3, stage: 1 }],
    attachmentTeeth: [13, 23],
    attachmentStages: [{ tooth: 23, stage: 1 }],
    notes: '',
  };
  form.append('summary', JSON.stringify(summary));
  for (const file of stageFiles(2, 2)) form.append('stages', new Blob([new Uint8Array(file.data)]), file.name);
  await portalApi().call(
    endpoints.planUpload,
    { params: { caseId: submitted.CaseId }, body: form },
    { token: await apiLogin(staff.username, staff.password) },
  );
});

const planRegion = (page: Page) => page.getByRole('region', { name: 'Treatment Plan' });

async function openCase(page: Page) {
  await openSignedIn(page, staff.username, staff.password, `/cases/${submitted.CaseId}`);
  await expect.poll(() => planRegion(page).isVisible()).toBe(true);
  await settle(page);
}

/** axe's rules on landmarks and heading order (moderate, so not in expectNoSeriousA11yViolations): what they flag. */
async function landmarkAndHeadingViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const results = await page.evaluate(() =>
    window.axe.run(document, {
      runOnly: ['heading-order', 'landmark-no-duplicate-banner', 'landmark-banner-is-top-level', 'landmark-unique'],
      resultTypes: ['violations'],
    }),
  );
  return results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.html).join()}`);
}

/** The dialog alone at a phone's width and a desktop's, kept in e2e/artifacts for people to look at. */
async function dialogScreenshots(page: Page, dialog: Locator, name: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await settle(page);
    await dialog.screenshot({ path: path.join(artifactsDir, `${name}-dialog-${width}.png`) });
  }
}

/** Whether `locator` has the keyboard focus. */
const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

const asFiles = (files: { name: string; data: Buffer }[]) =>
  files.map((file) => ({ name: file.name, mimeType: 'model/stl', buffer: file.data }));

describe('The plan upload form', () => {
  it("starts from the last version's IPR; lists per arch the stages found, missing and duplicated, the names it cannot read and a ZIP's; the upload shows its progress", async () => {
    const page = await newPage(browser());
    await openCase(page);
    await planRegion(page).getByRole('button', { name: 'Upload a new version' }).click();
    const form = page.getByRole('form', { name: 'Upload a plan version' });
    // Version 2 starts from version 1's IPR and attachments.
    expect(await form.getByRole('textbox', { name: 'IPR 1 contact' }).inputValue()).toBe('11-21');
    expect(await form.getByRole('textbox', { name: 'IPR 1 amount (mm)' }).inputValue()).toBe('0.3');
    expect(await form.getByRole('textbox', { name: 'IPR 1 at stage' }).inputValue()).toBe('1');
    expect(await form.getByRole('textbox', { name: 'Attachment teeth' }).inputValue()).toBe('13, 23:1');
    await form.getByRole('textbox', { name: 'Upper stages' }).fill('3');
    await form.getByRole('textbox', { name: 'Lower stages' }).fill('2');
    const files = form.getByRole('region', { name: 'Stages in the files' });

    // Upper stage 2 missing, stage 1 twice under two namings, lower complete, one name unreadable.
    const upper = stageFiles(3, 0).filter((file) => file.name !== 'upper_02.stl');
    const twice = { name: 'Maxillary_Stage_1.stl', data: upper[1]!.data };
    await form
      .locator('input[type=file]')
      .setInputFiles(asFiles([...upper, twice, ...stageFiles(0, 2), { name: 'scan-final.stl', data: upper[0]!.data }]));
    await expect.poll(() => files.getByText('8 files selected').isVisible()).toBe(true);
    const upperArch = files.getByRole('group', { name: 'Upper arch' });
    expect(await upperArch.textContent()).toBe(
      'Upper arch: stages 0–3Found: 0–1, 3Missing: 2More than one file: stage 1',
    );
    expect(await files.getByRole('group', { name: 'Lower arch' }).textContent()).toBe(
      'Lower arch: stages 0–2Found: 0–2',
    );
    expect(await files.getByText(/^Names that do not say the arch and stage/).textContent()).toBe(
      'Names that do not say the arch and stage (e.g. upper_03.stl): scan-final.stl',
    );
    // The counts typed later check the same files again.
    await form.getByRole('textbox', { name: 'Upper stages' }).fill('4');
    await expect.poll(() => upperArch.textContent()).toMatch(/Missing: 2, 4/);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'plan-upload-stages-found');

    // A ZIP's stages are listed from its directory, and fill the counts (the one typed cleared first).
    await form.getByRole('textbox', { name: 'Upper stages' }).fill('');
    await form
      .locator('input[type=file]')
      .setInputFiles([{ name: 'plan-v2.zip', mimeType: 'application/zip', buffer: zipOf(stageFiles(2, 2)) }]);
    await expect.poll(() => files.getByText('plan-v2.zip: a ZIP of 6 files').isVisible()).toBe(true);
    expect(await upperArch.textContent()).toBe('Upper arch: stages 0–2Found: 0–2');
    expect(await form.getByRole('textbox', { name: 'Upper stages' }).inputValue()).toBe('2');
    expect(await form.getByRole('textbox', { name: 'Lower stages' }).inputValue()).toBe('2');
    expect(await files.getByText(/^The stage counts above are the last stages in these names/).isVisible()).toBe(true);
    await screenshots(page, 'plan-upload-zip-listed');
    await form.getByRole('button', { name: 'Upload version' }).click();
    await expect.poll(() => overlayShown(page, /\d+% uploaded/)).toBe(true);
    await expectToast(page, 'Plan version 2 uploaded');
  });
});

describe('The plan viewer', () => {
  it('gives focus back to its button, has no second banner and headings in order, and turns to the presets', async () => {
    const page = await newPage(browser());
    await openCase(page);
    const opener = planRegion(page).getByRole('button', { name: 'View version 1 in 3D' });
    await opener.focus();
    await page.keyboard.press('Enter');
    const viewer = page.getByRole('dialog', { name: 'Treatment plan version 1' });
    const canvasBox = viewer.locator('[data-shown-stage]');
    await expect.poll(() => canvasBox.getAttribute('data-shown-stage'), { timeout: scaled(60_000) }).toBe('0');
    expect(await landmarkAndHeadingViolations(page)).toEqual([]);

    const presets = viewer.getByRole('group', { name: 'View' });
    const before = await canvasBox.screenshot();
    await presets.getByRole('button', { name: 'Occlusal upper' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await canvasBox.screenshot()).equals(before)).toBe(false);
    // An occlusal view of the upper arch hides the lower, which would stand in front of it.
    expect(await viewer.getByRole('checkbox', { name: 'Lower arch' }).isChecked()).toBe(false);
    expect(await viewer.getByRole('checkbox', { name: 'Upper arch' }).isChecked()).toBe(true);
    await dialogScreenshots(page, viewer, 'plan-viewer-occlusal-upper');
    await presets.getByRole('button', { name: 'Left' }).click();
    await presets.getByRole('button', { name: 'Front' }).click();

    await page.keyboard.press('Escape');
    await expect.poll(() => viewer.count()).toBe(0);
    await expect.poll(() => isFocused(opener)).toBe(true);
  });
});

describe('The scan viewer', () => {
  it('shows and hides each arch, turns to the presets by keyboard, and gives focus back to its button', async () => {
    const page = await newPage(browser());
    await openCase(page);
    const opener = page.getByRole('button', { name: 'View in 3D', exact: true });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: '3D scan viewer' });
    const canvas = dialog.getByRole('img', { name: '3D view of the upper (maxillary) and lower (mandibular) scan' });
    const colours = async () => canvasColours(await canvas.screenshot());
    // The test scans are flat triangles facing +z: full from the front, edge-on (unseen) from the side.
    await expect
      .poll(async () => Math.min(...Object.values(await colours())), { timeout: scaled(60_000) })
      .toBeGreaterThan(100);
    expect(await landmarkAndHeadingViolations(page)).toEqual([]);

    const upper = dialog.getByRole('checkbox', { name: 'Upper (maxillary)' });
    await upper.focus();
    await page.keyboard.press('Space');
    await expect.poll(async () => (await colours()).upper).toBe(0);
    expect((await colours()).lower).toBeGreaterThan(100);
    await page.keyboard.press('Space');
    await expect.poll(async () => (await colours()).upper).toBeGreaterThan(100);

    const presets = dialog.getByRole('group', { name: 'View' });
    await presets.getByRole('button', { name: 'Front' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => Math.min(...Object.values(await colours()))).toBeGreaterThan(100);
    const front = await colours();
    await presets.getByRole('button', { name: 'Left' }).focus();
    await page.keyboard.press('Enter');
    // Edge-on, each flat scan is a line a pixel or two wide.
    await expect.poll(async () => (await colours()).upper).toBeLessThan(front.upper / 5);
    expect((await colours()).lower).toBeLessThan(front.lower / 5);
    await dialogScreenshots(page, dialog, 'scan-viewer-left');
    await presets.getByRole('button', { name: 'Occlusal lower' }).click();
    await expect.poll(() => upper.isChecked()).toBe(false);
    expect(await dialog.getByRole('checkbox', { name: 'Lower (mandibular)' }).isChecked()).toBe(true);
    await expectNoSeriousA11yViolations(page);
    await dialogScreenshots(page, dialog, 'scan-viewer-occlusal-lower');

    await dialog.getByRole('button', { name: 'Close 3D viewer' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => isFocused(opener)).toBe(true);
  });
});
