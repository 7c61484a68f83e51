import { toothLabel } from '@portal/contract';
import sharp from 'sharp';
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
import { approvePlan, progressStage, sendProgressScan, stuckTooth, uploadProgressPlan } from '../helpers/progress.ts';
import { scaled } from '../helpers/test-time.ts';

/**
 * Issue 42, "View on the plan" (docs/decisions/progress-scans.md § The overlay): a done
 * progress scan drawn over the planned stage, coloured by its distance to the planned teeth,
 * the off-track tooth named in the case's numbering; the scan and the plan each hidden by a
 * toggle. Plan and scan are the server tests' generated ones, fitted by the portal's own job.
 */

const browser = useBrowser();
vi.setConfig({ expect: { poll: { timeout: scaled(20_000) } }, testTimeout: scaled(300_000) });
const fitWait = { timeout: scaled(120_000) };


let doctor: Awaited<ReturnType<typeof createActiveDoctor>>;
let caseId: number;
/** Approves the plan once it is checked (its movements measured), then sends the scan and waits for its fit. */
let approveAndSend: () => Promise<void>;

beforeAll(async () => {
  doctor = await createActiveDoctor();
  const staff = await createStaff([1]);
  const doctorToken = await apiLogin(doctor.username, doctor.password);
  caseId = (await submitCase(doctorToken, undefined, { toothNumbering: 'FDI' })).CaseId;
  const planId = await uploadProgressPlan(caseId, await apiLogin(staff.username, staff.password));
  approveAndSend = async () => {
    // Approved once the plan is checked (its movements measured), then the scan sent and fitted.
    await expect.poll(approvePlan(caseId, planId, doctorToken), fitWait).toBe('approved');
    await expect.poll(await sendProgressScan(caseId, doctorToken), fitWait).toBe('done');
  };
});

/** Pixels of the view's screenshot that are the legend's green, and its red. */
async function greenAndRed(png: Buffer) {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const counts = { green: 0, red: 0 };
  for (let i = 0; i < data.length; i += info.channels) {
    const [red, green, blue] = [data[i]!, data[i + 1]!, data[i + 2]!];
    if (green - red > 40 && green - blue > 40) counts.green++;
    if (red - green > 60 && red - blue > 60) counts.red++;
  }
  return counts;
}

describe('The progress overlay', () => {
  it('draws the scan over the planned stage by its distance, names the off-track tooth as the case does, and hides either', async () => {
    await approveAndSend();
    const page = await newPage(browser());
    await openSignedIn(page, doctor.username, doctor.password, `/cases/${caseId}`);
    const progress = page.getByRole('region', { name: 'Progress scans' });
    const item = progress.getByRole('listitem', { name: `Progress scan at aligner ${progressStage}` });
    await expect.poll(() => item.getByRole('button', { name: 'See the result' }).isVisible()).toBe(true);
    await settle(page);
    await item.getByRole('button', { name: 'See the result' }).click();
    await progress.getByRole('button', { name: 'View on the plan' }).click();

    const dialog = page.getByRole('dialog', { name: `Progress scan at aligner ${progressStage} on the plan` });
    const view = dialog.locator('[data-overlay-ready="true"]');
    await expect.poll(() => view.isVisible(), fitWait).toBe(true);
    // Named once its first frame is drawn (the canvas is hidden until then).
    const canvas = dialog.getByRole('img', {
      name: `3D view: the progress scan at aligner ${progressStage} over the planned stage`,
    });
    await expect.poll(() => canvas.isVisible()).toBe(true);
    // The off-track tooth in FDI, as the case numbers its teeth; the legend's red line is the lab's 0.5 mm.
    expect(
      await dialog.getByText(`Off track, marked on their planned teeth: ${toothLabel(stuckTooth, 'FDI')}.`).isVisible(),
    ).toBe(true);
    expect(await dialog.getByText('over 0.5 mm (off track)').isVisible()).toBe(true);
    // The teeth on track are green, the stuck one shows red.
    const colours = await greenAndRed(await view.screenshot());
    expect(colours.green).toBeGreaterThan(2000);
    expect(colours.red).toBeGreaterThan(50);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'progress-overlay');

    // Without the scan: the planned stage alone, no colours of the scan.
    await dialog.getByRole('checkbox', { name: 'Show the scan' }).uncheck();
    await expect.poll(async () => (await greenAndRed(await view.screenshot())).green).toBeLessThan(100);
    await dialog.getByRole('checkbox', { name: 'Show the scan' }).check();
    await dialog.getByRole('checkbox', { name: `Show the plan at aligner ${progressStage}` }).uncheck();
    await expect.poll(async () => (await greenAndRed(await view.screenshot())).green).toBeGreaterThan(2000);

    // On a phone (axe checked it there above): the dialog full screen, the legend below the view.
    await page.setViewportSize({ width: 375, height: 800 });
    await expect.poll(() => dialog.getByText('over 0.5 mm (off track)').isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Close 3D viewer' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await page.close();
  });
});
