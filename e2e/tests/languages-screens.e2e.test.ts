import type { Page } from 'playwright-core';
import { beforeAll, describe, it, vi } from 'vitest';
import {
  adminToken,
  apiCall,
  apiLogin,
  createActiveDoctor,
  createInactiveDoctor,
  e2eAdmin,
  portalApi,
} from '../helpers/api.ts';
import {
  expectNoSeriousA11yViolations,
  newPage,
  openSignedIn,
  screenshots,
  settle,
  useBrowser,
} from '../helpers/browser.ts';
import { submitCase } from '../helpers/cases.ts';
import { expectFullyTranslated, expectRightToLeft, pseudo, pseudoLocale } from '../helpers/languages.ts';
import { giveApprovedPlan } from '../helpers/plans.ts';
import { eventually } from '../helpers/doctor-form.ts';
import { scaled } from '../helpers/test-time.ts';

/**
 * The main screens in the pseudo-locale at 375 and 1280 px: no English left, nothing cut or
 * wider than its box (docs/quality/languages.md § The pseudo-locale); and in Arabic, mirrored
 * and accessible. What the test made is data, not words to translate (`data`).
 */
const browser = useBrowser();
vi.setConfig({ testTimeout: scaled(300_000) });

let doctor: Awaited<ReturnType<typeof createActiveDoctor>>;
let caseId: number;
let trackingNo: string;

beforeAll(async () => {
  doctor = await createActiveDoctor();
  const doctorToken = await apiLogin(doctor.username, doctor.password);
  ({ CaseId: caseId, TrackingNo: trackingNo } = await submitCase(doctorToken));
  await giveApprovedPlan(portalApi(), await adminToken(), doctorToken, caseId);
  // A doctor waiting for activation, named in plain letters no list of data holds: the page marks
  // names `translate="no"`, and the check takes what it marks as data (it once read another
  // test's "Typed Clinic" as English).
  await createInactiveDoctor({ lastname: 'Hopper' });
  // Two messages the lab has not read: the administrator's dashboard shows a count beside the
  // case's number, in a column the pseudo-locale's longer heading squeezes (it was cut once).
  for (const text of ['Any news?', 'Still waiting.']) {
    const form = new FormData();
    form.append('text', text);
    await apiCall('POST', `/case/${caseId}/messages`, { token: doctorToken, form });
  }
}, scaled(300_000));

/** What the screens show that the tests made or the seed holds: names, numbers, files. */
const data = () => [
  ...[doctor.username, e2eAdmin.username, trackingNo, 'Ada Lovelace', 'Lovelace', 'Ada', 'Portal Administrator'],
  ...['Pat Patient', 'Patient', 'Pat', 'Smile Clinic', '1 Main St', 'Andkhoy', 'upper.stl', 'lower.stl', 'smile.png'],
  // The case's own words (helpers/cases.ts), seeded roles and their descriptions, the API's device name.
  ...['Crowding of the lower incisors', 'Upper anteriors 0.2 mm', 'Administrator', 'Doctor', 'Portal', 'node'],
  ...['Full access', 'Doctors who submit cases', 'Any news?', 'Still waiting.'],
  // What every language keeps as it is.
  ...['Aligner Portal', 'IPR', 'FDI', 'STL-1', 'STL-2', 'BITE-1', 'BITE-2', '.stl', '.STL', '.png'],
];

async function open(page: Page, username: string, password: string, path: string) {
  await openSignedIn(page, username, password, path);
  await settle(page);
}

const doctorScreens = ['/dashboard', '/inbox', '/cases', '/profile', '/security'];
const adminScreens = [
  '/dashboard',
  '/users',
  '/roles',
  '/rolepermissions',
  '/doctors',
  '/audit',
  '/settings',
  '/security',
];

describe('The main screens in the pseudo-locale', () => {
  it.each(doctorScreens)("the doctor's %s", async (path) => {
    const page = await newPage(browser(), 1280, undefined, { locale: pseudoLocale });
    await open(page, doctor.username, doctor.password, path);
    await expectFullyTranslated(page, data());
    await screenshots(page, `languages-pseudo-doctor${path.replaceAll('/', '-')}`);
  });

  it("the doctor's case page and its plan", async () => {
    const page = await newPage(browser(), 1280, undefined, { locale: pseudoLocale });
    await open(page, doctor.username, doctor.password, `/cases/${caseId}`);
    await expectFullyTranslated(page, data());
    await screenshots(page, 'languages-pseudo-case');
  });

  it('Add Case, each of its steps', async () => {
    const page = await newPage(browser(), 1280, undefined, { locale: pseudoLocale });
    await open(page, doctor.username, doctor.password, '/cases');
    const steps = page.locator('.mantine-Stepper-step');
    for (let step = 0; step < 3; step += 1) {
      await steps.nth(step).click();
      await settle(page);
      await expectFullyTranslated(page, data());
      await screenshots(page, `languages-pseudo-add-case-step-${step + 1}`);
    }
  });

  it('the plan viewer with its tables', async () => {
    const page = await newPage(browser(), 1280, undefined, { locale: pseudoLocale });
    await open(page, doctor.username, doctor.password, `/cases/${caseId}#plan`);
    await page.getByRole('button', { name: pseudo('View version {version} in 3D', { version: 1 }) }).click();
    const viewer = page.getByRole('dialog', { name: pseudo('Treatment plan version {version}', { version: 1 }) });
    await eventually(() => viewer.isVisible()).toBe(true);
    await settle(page);
    await expectFullyTranslated(page, data());
    await screenshots(page, 'languages-pseudo-plan-viewer');
  });

  it.each(adminScreens)("the administrator's %s", async (path) => {
    const page = await newPage(browser(), 1280, undefined, { locale: pseudoLocale });
    await open(page, e2eAdmin.username, e2eAdmin.password, path);
    await expectFullyTranslated(page, data());
    await screenshots(page, `languages-pseudo-admin${path.replaceAll('/', '-')}`);
  });

  it('registration', async () => {
    const page = await newPage(browser(), 1280, undefined, { locale: pseudoLocale });
    await page.goto('/register');
    await settle(page);
    await expectFullyTranslated(page, data());
    await screenshots(page, 'languages-pseudo-register');
  });
});

describe('The main screens in Arabic', () => {
  it.each([...doctorScreens, `/cases/{case}`])("the doctor's %s, mirrored and accessible", async (path) => {
    const page = await newPage(browser(), 1280, undefined, { locale: 'ar' });
    // The account's language decides once signed in.
    const token = await apiLogin(doctor.username, doctor.password);
    await apiCall('PUT', '/account/locale', { token, json: { locale: 'ar' } });
    await open(page, doctor.username, doctor.password, path.replace('{case}', String(caseId)));
    await expectRightToLeft(page, 'ar');
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, `languages-ar-doctor${path.replaceAll('/', '-').replace('{case}', 'case')}`);
  });
});

describe('The main screens in German and Chinese', () => {
  it.each(['de', 'zh-CN'])('the doctor’s dashboard, Add Case and case page in %s, accessible', async (locale) => {
    const page = await newPage(browser(), 1280, undefined, { locale });
    const token = await apiLogin(doctor.username, doctor.password);
    await apiCall('PUT', '/account/locale', { token, json: { locale } });
    for (const path of ['/dashboard', '/cases', `/cases/${caseId}`]) {
      await open(page, doctor.username, doctor.password, path);
      await eventually(() =>
        page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]),
      ).toEqual([locale, 'ltr']);
      await expectNoSeriousA11yViolations(page);
      await screenshots(page, `languages-${locale}-doctor${path.replaceAll('/', '-').replace(String(caseId), 'case')}`);
    }
  });
});
