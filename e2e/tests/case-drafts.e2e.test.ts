import type { CaseDraftSummary } from '@portal/contract';
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiCall, apiLogin, createActiveDoctor, uniqueName } from '../helpers/api.ts';
import {
  expectNoSeriousA11yViolations,
  newPage,
  screenshots,
  settle,
  openSignedIn,
  useBrowser,
} from '../helpers/browser.ts';
import { fillCaseDetails, goToStep, pickRadio } from '../helpers/case-form.ts';
import { selectOption } from '../helpers/forms.ts';
import { expectToast } from '../helpers/shown.ts';
import { scaled } from '../helpers/test-time.ts';

/** Issue 10: the case form saves itself as a draft; a reload or a click elsewhere loses nothing. */

const browser = useBrowser();
const waitLong = { timeout: scaled(20_000) };

const mainMenu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });
const savedShown = (page: Page) => page.getByText('Saved', { exact: true }).isVisible();
const textbox = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });
const radioChecked = (page: Page, group: string, option: string) =>
  page
    .getByRole('radiogroup', { name: group, exact: true })
    .getByRole('radio', { name: option, exact: true })
    .isChecked();

async function openNewCaseForm(page: Page) {
  await mainMenu(page).getByRole('link', { name: 'Add Cases', exact: true }).click();
  await page.waitForURL('**/cases');
  await settle(page);
}

async function draftsOf(doctor: { username: string; password: string }) {
  const token = await apiLogin(doctor.username, doctor.password);
  return apiCall<CaseDraftSummary[]>('GET', '/case/drafts', { token });
}

describe('Case drafts', () => {
  it('saves the form as it is filled in: a reload brings back every field and tooth list, on its step', async () => {
    const doctor = await createActiveDoctor();
    // Teeth are shown in the reader's notation (docs/decisions/tooth-notation.md): Universal, as this test reads them.
    await apiCall('PUT', '/account/tooth-notation', {
      token: await apiLogin(doctor.username, doctor.password),
      json: { toothNotation: 'Universal' },
    });
    const page = await newPage(browser());
    await openSignedIn(page, doctor.username, doctor.password);
    await openNewCaseForm(page);
    const firstname = uniqueName('Dra');

    await fillCaseDetails(page, { firstname, lastname: 'Fted', dob: '2001-03-05' });
    await selectOption(page, 'Gender', 'Female');
    await page.getByRole('button', { name: 'Next' }).click();
    // The first save makes the draft, and the address names it.
    await page.waitForURL(/\/cases\?draft=\d+$/, waitLong);
    await pickRadio(page, 'Midline', 'Maintain');
    await page.getByRole('button', { name: "Select teeth: Don't Move Tooth" }).click();
    const picker = page.getByRole('dialog', { name: 'Select Tooth' });
    await expect.poll(() => picker.isVisible()).toBe(true);
    await picker.getByRole('checkbox', { name: /Upper left 6 \(tooth 14\)/ }).check();
    await picker.getByRole('checkbox', { name: /Lower right 6 \(tooth 30\)/ }).check();
    await picker.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => textbox(page, "Don't Move Tooth").inputValue()).toBe('14, 30');
    await textbox(page, 'Special Instructions').fill('Keep the bridge');
    await expect.poll(() => savedShown(page), waitLong).toBe(true);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'case-draft-saved');

    await page.reload();
    await expect.poll(() => textbox(page, 'Special Instructions').isVisible(), waitLong).toBe(true);
    expect(await textbox(page, 'Special Instructions').inputValue()).toBe('Keep the bridge');
    expect(await textbox(page, "Don't Move Tooth").inputValue()).toBe('14, 30');
    expect(await radioChecked(page, 'Midline', 'Maintain')).toBe(true);
    await goToStep(page, 'Case Details');
    await expect.poll(() => textbox(page, 'First Name').inputValue()).toBe(firstname);
    expect(await textbox(page, 'Last Name').inputValue()).toBe('Fted');
    expect(await textbox(page, 'Date Of Birth').inputValue()).toBe('2001-03-05');
    // The clinic's name shows once the doctor's clinic list has arrived.
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Clinic', exact: true }).inputValue())
      .toBe('Smile Clinic');
    expect(await page.getByRole('combobox', { name: 'Gender', exact: true }).inputValue()).toBe('Female');
    expect(await textbox(page, 'Chief Complaint').inputValue()).toBe('Crowding of the lower incisors');
    expect((await draftsOf(doctor)).map((draft) => draft.patientName)).toEqual([`${firstname} Fted`]);
  });

  it('asks before leaving with changes not saved yet; the dashboard lists the draft, Continue opens it, submitting removes it', async () => {
    const doctor = await createActiveDoctor();
    const page = await newPage(browser());
    await openSignedIn(page, doctor.username, doctor.password);
    await openNewCaseForm(page);
    const firstname = uniqueName('Lea');
    await fillCaseDetails(page, { firstname, lastname: 'Ving', dob: '1999-07-01' });
    await expect.poll(() => savedShown(page), waitLong).toBe(true);

    // Saves held back: the form has changes the server does not have yet.
    const held: Route[] = [];
    await page.route('**/api/case/drafts/*', (route) => void held.push(route));
    await textbox(page, 'Last Name').fill('Vingt');
    await expect.poll(() => held.length, waitLong).toBe(1);
    await mainMenu(page)
      .getByRole('link', { name: /^Dashboard/ })
      .click();
    const confirm = page.getByRole('dialog', { name: 'Leave the case form?' });
    await expect.poll(() => confirm.isVisible(), waitLong).toBe(true);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'case-draft-leave');
    await confirm.getByRole('button', { name: 'Stay' }).click();
    await expect.poll(() => confirm.isVisible()).toBe(false);
    expect(new URL(page.url()).pathname).toBe('/cases');

    for (const route of held) await route.continue();
    await page.unroute('**/api/case/drafts/*');
    await expect.poll(() => savedShown(page), waitLong).toBe(true);
    await mainMenu(page)
      .getByRole('link', { name: /^Dashboard/ })
      .click();
    await page.waitForURL('**/dashboard');
    const drafts = page.getByRole('region', { name: 'Drafts' });
    await expect
      .poll(() => drafts.getByRole('cell', { name: `${firstname} Vingt`, exact: true }).isVisible(), waitLong)
      .toBe(true);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'case-drafts-dashboard');

    await drafts.getByRole('link', { name: `Continue ${firstname} Vingt` }).click();
    await page.waitForURL(/\/cases\?draft=\d+$/);
    await expect.poll(() => textbox(page, 'Last Name').inputValue(), waitLong).toBe('Vingt');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await pickRadio(page, 'Impression Type', 'PVS Impression');
    await page.getByRole('checkbox', { name: /I accept the Terms and Conditions/ }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, /^Case submitted successfully \(AL-/);
    await page.waitForURL(/\/cases\/\d+$/, waitLong);
    expect(await draftsOf(doctor)).toEqual([]);
  });

  it('deletes a draft from the dashboard after asking', async () => {
    const doctor = await createActiveDoctor();
    const token = await apiLogin(doctor.username, doctor.password);
    await apiCall('POST', '/case/drafts', { token, json: { fields: { firstname: 'Gone', lastname: 'Soon' } } });
    const page = await newPage(browser());
    await openSignedIn(page, doctor.username, doctor.password);
    const drafts = page.getByRole('region', { name: 'Drafts' });
    await expect.poll(() => drafts.isVisible(), waitLong).toBe(true);
    await drafts.getByRole('button', { name: 'Delete draft Gone Soon' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Draft deleted');
    await expect.poll(() => drafts.isVisible(), waitLong).toBe(false);
    expect(await draftsOf(doctor)).toEqual([]);
  });
});
