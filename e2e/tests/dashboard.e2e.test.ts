import path from 'node:path';
import type { Page, Route } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiLogin, createActiveDoctor, createStaff } from '../helpers/api.ts';
import {
  artifactsDir,
  clickUntil,
  expectNoSeriousA11yViolations,
  useBrowser,
  newPage,
  screenshots,
  settle,
  openSignedIn,
  viewingCopyWait,
} from '../helpers/browser.ts';
import { canvasColours } from '../helpers/canvas-colours.ts';
import { asciiStl, defaultCaseFiles, pngPhoto, submitCase } from '../helpers/cases.ts';
import { chooseStatus, statusDialog } from '../helpers/case-status.ts';
import { expectToast } from '../helpers/shown.ts';
import { scaled } from '../helpers/test-time.ts';

const browser = useBrowser();
let doctor: Awaited<ReturnType<typeof createActiveDoctor>>;
let staff: Awaited<ReturnType<typeof createStaff>>;
let submitted: { CaseId: number; TrackingNo: string };

// Screens wait on a real server: give each poll more than the default second.
vi.setConfig({ expect: { poll: { timeout: scaled(10_000) } } });

beforeAll(async () => {
  doctor = await createActiveDoctor();
  staff = await createStaff([1]);
  const files = await defaultCaseFiles();
  submitted = await submitCase(
    await apiLogin(doctor.username, doctor.password),
    { ...files, opv: { name: 'opg.png', data: await pngPhoto(), type: 'image/png' } },
    { gender: '', toothNumbering: 'FDI', moveTooth: '1,2,16', noAttachment: '8' },
  );
});

const tile = (page: Page, label: string) =>
  page.getByRole('group', { name: 'Filter cases by status' }).getByRole('button', { name: new RegExp(`^${label}`) });
/** A column header, by its title; a sortable one holds a button of the same name. */
const columnHeader = (page: Page, title: string) =>
  page.getByRole('table').getByRole('columnheader', { name: title, exact: true });
/** The button that sorts by a column. */
const sortButton = (page: Page, title: string) =>
  columnHeader(page, title).getByRole('button', { name: title, exact: true });
const caseRow = (page: Page, trackingNo: string) => page.getByRole('row').filter({ hasText: trackingNo });
/** The value shown beside a label in the case detail (a dt/dd pair). */
const detailValue = (page: Page, label: string) =>
  page
    .getByRole('term')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::dd[1]')
    .textContent();

/**
 * Waits until the server's background job has settled the viewing copy of each named scan on
 * the open case page, and returns their states (read as the page would, with its cookie).
 */
async function viewCopies(page: Page, groups: Record<string, string>): Promise<Record<string, string>> {
  const states: Record<string, string> = {};
  for (const [group, fileName] of Object.entries(groups)) {
    const href = await page
      .getByRole('region', { name: group })
      .getByRole('link', { name: fileName })
      .getAttribute('href');
    const attachmentId = href!.split('/').at(-2);
    await expect
      .poll(
        async () =>
          (states[fileName] = (
            (await (await page.request.get(`/api/case/file-views/${attachmentId}`)).json()) as { state: string }
          ).state),
        viewingCopyWait,
      )
      .not.toBe('pending');
  }
  return states;
}

async function signInTo(username: string, password: string): Promise<Page> {
  const page = await newPage(browser());
  await openSignedIn(page, username, password);
  await page.getByRole('group', { name: 'Filter cases by status' }).waitFor();
  await settle(page);
  return page;
}

async function openCase(page: Page, trackingNo: string) {
  await settle(page);
  await clickUntil(
    () =>
      caseRow(page, trackingNo)
        .getByRole('button', { name: 'View' })
        .click({ timeout: scaled(10_000) }),
    async () => /\/cases\/\d+$/.test(new URL(page.url()).pathname),
    `opening case ${trackingNo}`,
  );
  await expect.poll(() => page.getByRole('heading', { name: `Case ${trackingNo}` }).isVisible()).toBe(true);
  await settle(page);
}

describe('Dashboard as a doctor', () => {
  it('shows their case and the tiles, without New Cases or the Doctor column, and filters by tile', async () => {
    const page = await signInTo(doctor.username, doctor.password);
    for (const label of ['Total Cases', 'In Progress', 'Dispatched', 'Delivered']) {
      await expect.poll(() => tile(page, label).isVisible()).toBe(true);
    }
    expect(await tile(page, 'New Cases').count()).toBe(0);
    // The count replaces the tile's skeleton when the stats answer (no overlay waits for it).
    await expect.poll(() => tile(page, 'Total Cases').textContent()).toMatch(/Total Cases\s*1$/);
    expect(await tile(page, 'Total Cases').getAttribute('aria-pressed')).toBe('true');
    expect(await columnHeader(page, 'Doctor').count()).toBe(0);
    for (const header of ['S.No', 'Tracking No', 'First Name', 'Last Name', 'DOB', 'Status']) {
      expect(await columnHeader(page, header).count()).toBe(1);
    }
    const row = caseRow(page, submitted.TrackingNo);
    await expect.poll(() => row.isVisible()).toBe(true);
    expect(await row.textContent()).toContain('March 5, 2001');
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'dashboard-doctor-list');

    await tile(page, 'In Progress').click();
    await settle(page);
    await expect.poll(() => tile(page, 'In Progress').getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => page.getByText('There are no records to display').isVisible()).toBe(true);
    await tile(page, 'Total Cases').focus();
    await page.keyboard.press('Enter');
    await settle(page);
    await expect.poll(() => row.isVisible()).toBe(true);
  });

  it("opens the case's page: fields, grouped attachments, the photo, the scan downloads and its timeline", async () => {
    const page = await signInTo(doctor.username, doctor.password);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await openCase(page, submitted.TrackingNo);

    expect(await detailValue(page, 'Tracking No')).toBe(submitted.TrackingNo);
    expect(await detailValue(page, 'Name')).toBe('Pat Patient');
    expect(await detailValue(page, 'Date of Birth')).toBe('March 5, 2001');
    expect(await detailValue(page, 'Gender')).toBe('N/A');
    expect(await detailValue(page, 'Arches To Treat')).toBe('Both');
    expect(await detailValue(page, 'Chief Complaint')).toBe('Crowding of the lower incisors');
    expect(await detailValue(page, 'Midline')).toBe('Improve');
    expect(await detailValue(page, 'IPR')).toBe('First preference');
    expect(await detailValue(page, 'Tooth Numbering')).toBe('FDI');
    expect(await detailValue(page, "Don't Move Tooth")).toBe('18, 17, 28');
    expect(await detailValue(page, 'No Attachment')).toBe('11');
    expect(await detailValue(page, 'No Elastic')).toBe('N/A');
    expect(await detailValue(page, 'Special Instructions')).toBe('N/A');
    expect(await detailValue(page, 'Impression Type')).toBe('Digital Impression');

    for (const empty of ['No X-Ray CEPH attachments', 'No BITE-1 attachments', 'No BITE-2 attachments']) {
      await expect.poll(() => page.getByText(empty).isVisible()).toBe(true);
    }
    expect(await page.getByText('No X-Ray OPG attachments').count()).toBe(0);
    expect(await page.getByText('No STL-1 attachments').count()).toBe(0);
    expect(await page.getByRole('region', { name: 'X-Ray OPG' }).getByRole('img', { name: 'opg.png' }).count()).toBe(1);
    const photo = page.getByRole('region', { name: 'Other files' }).getByRole('img', { name: 'smile.png' });
    await expect.poll(() => photo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(64);
    for (const [group, fileName] of [
      ['STL-1', 'upper.stl'],
      ['STL-2', 'lower.stl'],
    ] as const) {
      const link = page.getByRole('region', { name: group }).getByRole('link', { name: fileName });
      expect(await link.getAttribute('download')).toBe(fileName);
      expect(await link.getAttribute('href')).toMatch(/^\/api\/case\/files\/\d+\//);
    }

    expect(await page.getByRole('button', { name: 'Update Status' }).count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe(`/cases/${submitted.CaseId}`);
    const history = page.getByRole('region', { name: 'Status' });
    await expect.poll(() => history.getByText('Case submitted', { exact: true }).isVisible()).toBe(true);
    expect(await history.textContent()).toMatch(/by Ada Lovelace/);
    expect(await history.textContent()).toContain('opg.png (X-Ray OPG)');
    expect(scripts.some((url) => /stl-scene/.test(url))).toBe(false);

    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'dashboard-case-detail');

    await page.getByRole('button', { name: 'Back to list' }).click();
    await expect.poll(() => caseRow(page, submitted.TrackingNo).isVisible()).toBe(true);
  });

  it('shows the upper and lower scans in the lazily loaded 3D viewer', async () => {
    const page = await signInTo(doctor.username, doctor.password);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    const meshRequests: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/case\/(file-views|files)\//.test(request.url())) meshRequests.push(new URL(request.url()).pathname);
    });
    await openCase(page, submitted.TrackingNo);
    // Each scan's viewing copy (a meshopt glTF made after the upload): the viewer loads it, not the STL.
    expect(await viewCopies(page, { 'STL-1': 'upper.stl', 'STL-2': 'lower.stl' })).toEqual({
      'upper.stl': 'ready',
      'lower.stl': 'ready',
    });
    await page.getByRole('button', { name: 'View in 3D' }).click();
    const dialog = page.getByRole('dialog', { name: '3D scan viewer' });
    const canvas = dialog.getByRole('img', { name: '3D view of the upper (maxillary) and lower (mandibular) scan' });
    await expect.poll(() => canvas.isVisible()).toBe(true);
    const box = await canvas.boundingBox();
    expect(box!.width).toBeGreaterThan(0);
    expect(box!.height).toBeGreaterThan(0);
    expect(await canvas.evaluate((element: HTMLCanvasElement) => element.width * element.height)).toBeGreaterThan(0);
    expect(scripts.some((url) => /stl-scene/.test(url))).toBe(true);
    // The first frame is drawn once the shaders have compiled (in software on this machine: a while).
    await expect
      .poll(async () => Math.min(...Object.values(await canvasColours(await canvas.screenshot()))), {
        timeout: scaled(60_000),
      })
      .toBeGreaterThan(100);
    expect(meshRequests.filter((url) => url.endsWith('/mesh.glb'))).toHaveLength(2);
    // Fetched and decoded in a worker (its own resource timeline): finishing a 1.8 MB download on
    // the page held it 40-450 ms (docs/decisions/viewer-first-open.md).
    expect(
      await page.evaluate(
        () => performance.getEntriesByType('resource').filter((entry) => entry.name.endsWith('/mesh.glb')).length,
      ),
    ).toBe(0);
    expect(meshRequests.filter((url) => /^\/api\/case\/files\/.*\.stl$/.test(url))).toEqual([]);
    expect(await dialog.getByText(/Showing the original/).count()).toBe(0);
    await expect.poll(() => dialog.getByText('Upper (maxillary)').isVisible()).toBe(true);
    await expect.poll(() => dialog.getByText('Lower (mandibular)').isVisible()).toBe(true);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'dashboard-stl-viewer');
    await dialog.screenshot({ path: path.join(artifactsDir, 'dashboard-stl-viewer-dialog.png') });

    await dialog.getByRole('button', { name: 'Close 3D viewer' }).click();
    await expect.poll(() => page.getByRole('img', { name: /3D view/ }).count()).toBe(0);
  });

  it('says so when a scan cannot be parsed', async () => {
    const other = await createActiveDoctor();
    const broken = await submitCase(await apiLogin(other.username, other.password), {
      maxillaryScan: { name: 'broken.stl', data: 'solid broken\nthis is not geometry\nendsolid broken\n' },
      mandibularScan: { name: 'lower.stl', data: asciiStl() },
    });
    const page = await signInTo(other.username, other.password);
    await openCase(page, broken.TrackingNo);
    // The server could make no viewing copy of it either: the viewer tries the original, and says why it cannot show it.
    expect(await viewCopies(page, { 'STL-1': 'broken.stl', 'STL-2': 'lower.stl' })).toEqual({
      'broken.stl': 'failed',
      'lower.stl': 'ready',
    });
    await page.getByRole('button', { name: 'View in 3D' }).click();
    const dialog = page.getByRole('dialog', { name: '3D scan viewer' });
    await expect
      .poll(() => dialog.getByRole('alert').textContent())
      .toBe('Could not read broken.stl: it is not a valid STL file.');
    await expect
      .poll(() => dialog.getByRole('img', { name: '3D view of the lower (mandibular) scan' }).isVisible())
      .toBe(true);
  });

  it('shows an error inside the shell, not a blank page, when the case list answers what it does not expect', async () => {
    // The web app does not parse answers again (the server checks each against the contract).
    const page = await newPage(browser());
    await page.route('**/api/case/get_cases_by_status/**', (route: Route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '{"rows":"not a list"}' }),
    );
    await openSignedIn(page, doctor.username, doctor.password);
    const alert = page.getByRole('alert').filter({ hasText: 'Something went wrong' });
    await expect.poll(() => alert.isVisible()).toBe(true);
    expect(await alert.textContent()).toContain('This page could not be shown. Reload the page to try again.');
    expect(
      await page
        .getByRole('navigation', { name: 'Main menu' })
        .getByRole('link', { name: /Dashboard/ })
        .isVisible(),
    ).toBe(true);
    await page.close();
  });
});

describe('Dashboard as staff with the Dashboard page', () => {
  it('shows New Cases and the Doctor column, searches, and moves the case to In Progress', async () => {
    const page = await signInTo(staff.username, staff.password);
    await expect.poll(() => tile(page, 'New Cases').isVisible()).toBe(true);
    await expect.poll(() => columnHeader(page, 'Doctor').isVisible()).toBe(true);

    const search = page.getByRole('textbox', { name: 'Search' });
    await search.fill(submitted.TrackingNo.toLowerCase());
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await expect.poll(() => caseRow(page, submitted.TrackingNo).isVisible()).toBe(true);
    await search.fill('ADA LOVE');
    await settle(page);
    await expect.poll(() => caseRow(page, submitted.TrackingNo).isVisible()).toBe(true);
    for (const text of await page
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: 'View' }) })
      .allTextContents()) {
      expect(text).toContain('Ada Lovelace');
    }
    await search.fill('no such case');
    await expect.poll(() => page.getByText('There are no records to display').isVisible()).toBe(true);
    await search.fill(submitted.TrackingNo);
    await expect.poll(() => caseRow(page, submitted.TrackingNo).isVisible()).toBe(true);
    const sorted = page.waitForRequest((request) => request.url().includes('sort=TrackingNo'));
    await sortButton(page, 'Tracking No').click();
    await sorted;
    await expect.poll(() => columnHeader(page, 'Tracking No').getAttribute('aria-sort')).toBe('ascending');
    const reversed = page.waitForRequest((request) => request.url().includes('sort=-TrackingNo'));
    await sortButton(page, 'Tracking No').focus();
    await page.keyboard.press('Enter');
    await reversed;
    await expect.poll(() => columnHeader(page, 'Tracking No').getAttribute('aria-sort')).toBe('descending');
    await settle(page);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'dashboard-staff-list');

    await openCase(page, submitted.TrackingNo);
    expect(await detailValue(page, 'Doctor')).toBe('Ada Lovelace');
    await chooseStatus(page, 'In Progress');
    await statusDialog(page).getByRole('button', { name: 'Confirm' }).click();
    const history = page.getByRole('region', { name: 'Status' });
    await expect.poll(() => history.getByText('New → In Progress', { exact: true }).isVisible()).toBe(true);
    await expectToast(page, 'Case status changed to In Progress');
    expect(await history.textContent()).toMatch(/by Sam Staff/);
    expect(await page.getByRole('button', { name: 'Update Status' }).isDisabled()).toBe(true);
    await settle(page);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'dashboard-staff-detail');

    await page.getByRole('button', { name: 'Back to list' }).click();
    // Back restores the list as it was: its search and sort are in the address.
    await page.waitForURL(
      (url) => url.searchParams.get('q') === submitted.TrackingNo && url.searchParams.get('sort') === '-TrackingNo',
    );
    await expect.poll(() => search.inputValue()).toBe(submitted.TrackingNo);
    await expect.poll(() => columnHeader(page, 'Tracking No').getAttribute('aria-sort')).toBe('descending');
    await tile(page, 'In Progress').click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'inprogress');
    await settle(page);
    await expect.poll(() => caseRow(page, submitted.TrackingNo).isVisible()).toBe(true);
    // A reload (or the address shared) shows the same tile, search and sort.
    await page.reload();
    await expect.poll(() => caseRow(page, submitted.TrackingNo).isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: 'In Progress cases' }).count()).toBe(1);
    await expect.poll(() => search.inputValue()).toBe(submitted.TrackingNo);
  });

  it('shows 5, 10 or 20 records a page from Records per page, whose menu loads at its first click', async () => {
    const page = await signInTo(staff.username, staff.password);
    const button = (size: number) => page.getByRole('button', { name: `Records per page: ${size}` });
    await expect.poll(() => button(10).getAttribute('aria-expanded')).toBe('false');
    const five = page.waitForRequest((request) => new URL(request.url()).searchParams.get('pageSize') === '5');
    await button(10).click();
    await expect.poll(() => page.getByRole('menuitem', { name: '20' }).isVisible()).toBe(true);
    expect(await page.getByRole('menuitem', { name: '10' }).isDisabled()).toBe(true);
    await page.getByRole('menuitem', { name: '5' }).click();
    await five;
    await expect.poll(() => button(5).isVisible()).toBe(true);
    expect(await page.getByRole('row').filter({ has: page.getByRole('button', { name: 'View' }) }).count()).toBeLessThanOrEqual(5);
    // From the keyboard, once loaded: Enter opens it, the arrows move, Enter picks.
    const twenty = page.waitForRequest((request) => new URL(request.url()).searchParams.get('pageSize') === '20');
    await button(5).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('menuitem', { name: '20' }).isVisible()).toBe(true);
    await page.getByRole('menuitem', { name: '20' }).focus();
    await page.keyboard.press('Enter');
    await twenty;
    await expect.poll(() => button(20).isVisible()).toBe(true);
  });

  it('confirms the status change with a toast also when the history answers before the list', async () => {
    // Another doctor's case, so that the doctor's tiles checked below stay as they are.
    const other = await createActiveDoctor();
    const late = await submitCase(await apiLogin(other.username, other.password));
    const page = await signInTo(staff.username, staff.password);
    await page.getByRole('textbox', { name: 'Search' }).fill(late.TrackingNo);
    await expect.poll(() => caseRow(page, late.TrackingNo).isVisible()).toBe(true);
    await openCase(page, late.TrackingNo);
    // The lists and tiles answer only once the new status is on screen: the form, keyed by
    // the status, and the modal are replaced before the change's refetches end.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const holdUntilReleased = async (route: Route) => {
      await held;
      await route.continue();
    };
    await page.route(/\/api\/case\/(get_cases_by_status|get_all_stats)\//, holdUntilReleased);
    await chooseStatus(page, 'In Progress');
    await statusDialog(page).getByRole('button', { name: 'Confirm' }).click();
    const history = page.getByRole('region', { name: 'Status' });
    await expect.poll(() => history.getByText('New → In Progress', { exact: true }).isVisible()).toBe(true);
    release();
    await expectToast(page, 'Case status changed to In Progress');
    await settle(page);
  });

  it("updates the doctor's In Progress tile after a reload", async () => {
    const page = await signInTo(doctor.username, doctor.password);
    await page.reload();
    await settle(page);
    await expect.poll(() => tile(page, 'In Progress').textContent()).toMatch(/In Progress\s*1$/);
    // The count replaces the tile's skeleton when the stats answer (no overlay waits for it).
    await expect.poll(() => tile(page, 'Total Cases').textContent()).toMatch(/Total Cases\s*1$/);
  });

  it("keeps a lab's six-digit counts inside their tiles and each label beside its icon; tracking numbers and badges whole", async () => {
    const page = await newPage(browser());
    // The stats as a lab with a million cases would have them.
    await page.route(/\/api\/case\/get_all_stats\//, (route: Route) =>
      route.fulfill({
        json: [
          {
            total: 1_000_000,
            newcases: 250_000,
            inprogress: 250_000,
            dispatched: 250_000,
            delivered: 250_000,
            awaitingApproval: 0,
            changesRequested: 125_000,
          },
        ],
      }),
    );
    // The list as it is, each case shown Dispatched: the longest status badge.
    await page.route(/\/api\/case\/get_cases_by_status\//, async (route: Route) => {
      const answer = await route.fetch();
      const rows = (await answer.json()) as { Status: string }[];
      await route.fulfill({ response: answer, json: rows.map((row) => ({ ...row, Status: 'dispatched' })) });
    });
    await openSignedIn(page, staff.username, staff.password);
    await expect.poll(() => tile(page, 'New Cases').textContent()).toMatch(/250000$/);
    const tiles = page.getByRole('group', { name: 'Filter cases by status' }).getByRole('button');
    expect(await tiles.count()).toBe(6);
    // A count or icon that does not fit makes its tile scroll sideways.
    const overflowing = () =>
      tiles.evaluateAll((buttons) =>
        buttons.filter((button) => button.scrollWidth > button.clientWidth).map((button) => button.textContent),
      );
    // A label that ran into its tile's icon.
    const labelsUnderIcons = () =>
      tiles.evaluateAll((buttons) =>
        buttons
          .filter((button) => {
            const label = button.querySelector('p')!.getBoundingClientRect();
            const icon = button.querySelector('[aria-hidden="true"]')!.getBoundingClientRect();
            return label.right > icon.left && label.bottom > icon.top && label.top < icon.bottom;
          })
          .map((button) => button.textContent),
      );
    const trackingNo = caseRow(page, submitted.TrackingNo).getByText(submitted.TrackingNo, { exact: true });
    const badge = caseRow(page, submitted.TrackingNo).getByText('Dispatched', { exact: true });
    await page.getByRole('textbox', { name: 'Search' }).fill(submitted.TrackingNo);
    await expect.poll(() => badge.isVisible()).toBe(true);
    for (const width of [1024, 1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await expect.poll(overflowing, { message: `tiles wider than their box at ${width} px` }).toEqual([]);
      expect(await labelsUnderIcons(), `${width} px`).toEqual([]);
      // One line: no taller than the line height of its text.
      const lineHeight = await trackingNo.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight));
      expect((await trackingNo.boundingBox())!.height, `tracking number at ${width} px`).toBeLessThan(lineHeight * 1.5);
      expect(
        await badge.evaluate((element) => element.scrollWidth <= element.clientWidth),
        `badge cut at ${width} px`,
      ).toBe(true);
      if (width > 375) continue;
      // A phone's list fits its screen: the row's View is on it (a wide screen's table may scroll).
      const view = (await caseRow(page, submitted.TrackingNo).getByRole('button', { name: 'View' }).boundingBox())!;
      expect(view.x + view.width, `View off the screen at ${width} px`).toBeLessThanOrEqual(width);
    }
    // On a phone the row names its patient without opening it.
    expect(await caseRow(page, submitted.TrackingNo).getByText('Pat Patient', { exact: true }).isVisible()).toBe(true);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'dashboard-tiles-dispatched');
  });
});
