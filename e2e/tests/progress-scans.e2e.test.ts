import path from 'node:path';
import { toothLabel, type CaseAttachment } from '@portal/contract';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiCall, apiLogin, createActiveDoctor, createStaff } from '../helpers/api.ts';
import {
  artifactsDir,
  expectNoSeriousA11yViolations,
  newPage,
  openSignedIn,
  screenshots,
  settle,
  useBrowser,
} from '../helpers/browser.ts';
import { submitCase } from '../helpers/cases.ts';
import {
  approvePlan,
  plannedTeeth,
  progressStage,
  stuckScanStl,
  stuckTooth,
  uploadProgressPlan,
} from '../helpers/progress.ts';
import { expectToast } from '../helpers/shown.ts';
import { scaled } from '../helpers/test-time.ts';

/**
 * Issue 42, the doctor's side (docs/decisions/progress-scans.md § On the case page): with a
 * plan approved, the doctor sends a progress scan, reads the result (the summary in the case's
 * numbering, the fit's anchors, each tooth against the planned stage) and orders the refinement
 * from it, the scan's files as the order's scans. Plan and scan are the server tests' own
 * generated ones (a real fit in the portal's background job), small enough for a browser run.
 */

const browser = useBrowser();
// The fit runs in the server's queue on a machine the rest of the run keeps busy.
vi.setConfig({ expect: { poll: { timeout: scaled(20_000) } }, testTimeout: scaled(300_000) });
const fitWait = { timeout: scaled(120_000) };

const stage = progressStage;
const scanStl = stuckScanStl();
const stuckFdi = toothLabel(stuckTooth, 'FDI');

let doctor: Awaited<ReturnType<typeof createActiveDoctor>>;
let submitted: { CaseId: number; TrackingNo: string };
let approve: () => Promise<string>;

beforeAll(async () => {
  doctor = await createActiveDoctor();
  const staff = await createStaff([1]);
  const doctorToken = await apiLogin(doctor.username, doctor.password);
  submitted = await submitCase(doctorToken, undefined, { toothNumbering: 'FDI' });
  // The lab's plan of 10 upper stages; the doctor approves it once it is checked (its movements measured).
  const planId = await uploadProgressPlan(submitted.CaseId, await apiLogin(staff.username, staff.password));
  approve = approvePlan(submitted.CaseId, planId, doctorToken);
});

const progress = (page: Page) => page.getByRole('region', { name: 'Progress scans' });
const scanItem = (page: Page) => progress(page).getByRole('listitem', { name: `Progress scan at aligner ${stage}` });

async function chooseScan(page: Page, label: string, file: { name: string; buffer: Buffer }) {
  const chooser = page.waitForEvent('filechooser');
  await page
    .getByRole('dialog', { name: 'Add a progress scan' })
    .getByRole('button', { name: label, exact: true })
    .click();
  await (await chooser).setFiles({ ...file, mimeType: 'model/stl' });
}

/** The dialog itself at 375 and 1280 px (a full-page capture leaves a fixed dialog out), with E2E_SCREENSHOTS=1 as `screenshots`. */
async function dialogShots(page: Page, name: string) {
  if (process.env.E2E_SCREENSHOTS !== '1') return;
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(artifactsDir, `${name}-${width}.png`) });
  }
}

describe('Progress scans', () => {
  it('the doctor sends a scan, reads the result tooth by tooth and orders the refinement from it', async () => {
    await expect.poll(approve, fitWait).toBe('approved');
    const page = await newPage(browser());
    await openSignedIn(page, doctor.username, doctor.password, `/cases/${submitted.CaseId}`);
    const add = progress(page).getByRole('button', { name: 'Add a progress scan' });
    await expect.poll(() => add.isVisible()).toBe(true);
    await settle(page);
    await expect.poll(() => progress(page).getByText('No progress scan yet').isVisible()).toBe(true);

    // A file that is no STL: the server's reason, in the dialog, and nothing sent.
    await add.click();
    const dialog = page.getByRole('dialog', { name: 'Add a progress scan' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole('textbox', { name: /Aligner worn now/ }).fill(String(stage));
    await chooseScan(page, 'Upper scan', { name: 'upper.stl', buffer: Buffer.from('not a mesh at all') });
    await expectNoSeriousA11yViolations(page);
    await dialogShots(page, 'progress-scan-dialog');
    await dialog.getByRole('button', { name: 'Send scan' }).click();
    const refusal = dialog.getByRole('alert');
    await expect.poll(() => refusal.isVisible()).toBe(true);
    expect(await refusal.textContent()).toMatch(/STL/);
    expect(
      await apiCall<unknown[]>('GET', `/case/${submitted.CaseId}/progress-scans`, {
        token: await apiLogin(doctor.username, doctor.password),
      }),
    ).toEqual([]);

    // The real scan: sent, fitted in the background, its result read in the list.
    await chooseScan(page, 'Upper scan', { name: 'upper-scan.stl', buffer: Buffer.from(scanStl) });
    await dialog.getByRole('button', { name: 'Send scan' }).click();
    // Sent when the dialog closes: the upload and the server's check of the mesh, on a busy machine.
    await expect.poll(() => dialog.isVisible(), fitWait).toBe(false);
    await expectToast(page, 'Progress scan sent: fitting it to the plan');
    await expect.poll(() => scanItem(page).isVisible()).toBe(true);
    const summary = `1 of ${plannedTeeth} teeth off track: ${stuckFdi}; the rest on track`;
    await expect.poll(() => scanItem(page).getByText(summary).isVisible(), fitWait).toBe(true);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'progress-scans-list');

    // The timeline names the teeth as the case does (FDI).
    await expect.poll(() => page.getByRole('region', { name: 'Status' }).getByText(summary).isVisible()).toBe(true);
    // The scan just sent opens once fitted; Hide and See toggle it.
    await expect.poll(() => scanItem(page).getByRole('button', { name: 'Hide the result' }).isVisible()).toBe(true);
    await scanItem(page).getByRole('button', { name: 'Hide the result' }).click();
    await scanItem(page).getByRole('button', { name: 'See the result' }).click();
    const result = progress(page).getByRole('region', { name: `Progress scan at aligner ${stage}` });
    await expect.poll(() => result.getByRole('alert').filter({ hasText: summary }).isVisible()).toBe(true);
    expect(await result.getByText(/^Anchored on \d+ teeth \(.+\), residual 0\.0\d\d mm$/).isVisible()).toBe(true);
    const table = result.getByRole('region', { name: /Upper arch teeth against the plan/ });
    const stuckRow = table.getByRole('row', { name: new RegExp(`\\(tooth ${stuckTooth}\\), off track`) });
    expect(await stuckRow.getByRole('rowheader').textContent()).toBe(`${stuckFdi}Off track`);
    expect(await stuckRow.textContent()).toMatch(/stages? behind/);
    expect(await table.getByText('Off track', { exact: true }).count()).toBe(1);
    expect(await table.getByText('on stage', { exact: true }).count()).toBeGreaterThan(plannedTeeth / 2);
    // One scan is no trend yet: its text alternative says so.
    expect(await stuckRow.getByRole('img', { name: /^Offset over 1 scan: \d\.\d\d mm at aligner 9$/ }).count()).toBe(1);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'progress-scan-result');

    // The refinement: the order form, the off-track tooth in the instructions, the scan as its scans.
    await result.getByRole('button', { name: 'Order a refinement' }).click();
    await page.waitForURL(/\/cases\?from=\d+&order=Refinement&progressScan=\d+/);
    const notice = page.getByRole('alert').filter({ hasText: 'New Refinement' });
    await expect.poll(() => notice.isVisible()).toBe(true);
    expect(await notice.textContent()).toContain(`progress scan of`);
    await page.getByRole('button', { name: 'Treatment Instructions' }).click();
    const instructions = page.getByRole('textbox', { name: 'Special Instructions' });
    await expect.poll(() => instructions.isVisible()).toBe(true);
    expect(await instructions.inputValue()).toContain(`Off track: ${stuckFdi}.`);
    await page.getByRole('button', { name: "Patients's Records" }).click();
    await expect.poll(() => page.getByText('Scans from the progress scan').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Maxillary Scan', exact: true }).count()).toBe(0);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'progress-refinement-form');
    await page.getByRole('checkbox', { name: /I accept the Terms and Conditions/ }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, /^Case submitted successfully \(AL-/);
    await page.waitForURL(/\/cases\/\d+$/);
    const childId = Number(new URL(page.url()).pathname.split('/').at(-1));
    expect(childId).not.toBe(submitted.CaseId);
    const token = await apiLogin(doctor.username, doctor.password);
    const files = await apiCall<CaseAttachment[]>('GET', `/case/get_cases_attachments_by_case_id/${childId}`, {
      token,
    });
    expect(files.map((file) => [file.FileType, file.FileSize])).toContainEqual(['MaxillaryScan', scanStl.byteLength]);
    expect(files.find((file) => file.FileType === 'MaxillaryScan')?.FileName).toMatch(/^progress-scan-\d+-upper\.stl$/);
  });
});
