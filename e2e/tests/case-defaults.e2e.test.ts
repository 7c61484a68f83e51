import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiCall, apiLogin, createActiveDoctor } from '../helpers/api.ts';
import {
  expectNoSeriousA11yViolations,
  newPage,
  screenshots,
  settle,
  menuLink,
  openSignedIn,
  useBrowser,
} from '../helpers/browser.ts';
import { pickRadio } from '../helpers/case-form.ts';
import { submitCase } from '../helpers/cases.ts';
import { selectOption } from '../helpers/forms.ts';
import { expectToast } from '../helpers/shown.ts';

/** Issue 10: a doctor's case defaults on the profile page, and the Print button of a case. */

const browser = useBrowser();

const radioChecked = (page: Page, group: string, option: string) =>
  page
    .getByRole('radiogroup', { name: group, exact: true })
    .getByRole('radio', { name: option, exact: true })
    .isChecked();

async function openProfile(page: Page) {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Profile' }).click();
  await page.waitForURL('**/profile');
  await page.keyboard.press('Escape');
}

describe('Case defaults', () => {
  it('are kept from the profile page and a new case starts from them', async () => {
    const doctor = await createActiveDoctor();
    const page = await newPage(browser());
    await openSignedIn(page, doctor.username, doctor.password);
    await openProfile(page);
    const section = page.getByRole('region', { name: 'Case defaults' });
    await expect.poll(() => section.isVisible()).toBe(true);
    // The sections above it fill in as their own requests answer, moving it down: a click
    // aimed before they have landed elsewhere (a loaded CI run "did not change its state").
    await settle(page);

    await pickRadio(page, 'Midline', 'Maintain');
    await pickRadio(page, 'Tooth Numbering', 'FDI');
    await pickRadio(page, 'Proclination', 'First preference');
    await pickRadio(page, 'IPR', 'First preference');
    await expect.poll(() => radioChecked(page, 'Proclination', 'First preference')).toBe(false);
    await selectOption(page, 'Aligner Shipment', 'Complete');
    await selectOption(page, 'Left Molar', 'Class-I (if possible)');
    await expectNoSeriousA11yViolations(page);
    await section.scrollIntoViewIfNeeded();
    await screenshots(page, 'profile-case-defaults');
    await section.getByRole('button', { name: 'Save case defaults' }).click();
    await expectToast(page, 'Case defaults saved');

    const token = await apiLogin(doctor.username, doctor.password);
    expect(await apiCall('GET', '/doctor/preferences', { token })).toMatchObject({
      midline: 'Maintain',
      toothNumbering: 'FDI',
      iprPreference: 'First preference',
      alignerShipment: 'Complete',
      leftMolar: 'Class-I (if possible)',
    });

    await menuLink(page, 'Add Cases').click();
    await page.waitForURL('**/cases');
    await expect.poll(() => page.getByRole('combobox', { name: 'Aligner Shipment' }).inputValue()).toBe('Complete');
    await page.getByRole('button', { name: 'Treatment Instructions' }).click();
    await expect.poll(() => radioChecked(page, 'Midline', 'Maintain')).toBe(true);
    expect(await radioChecked(page, 'Tooth Numbering', 'FDI')).toBe(true);
    expect(await radioChecked(page, 'IPR', 'First preference')).toBe(true);
    expect(await page.getByRole('combobox', { name: 'Left Molar' }).inputValue()).toBe('Class-I (if possible)');
  });
});

describe('Print', () => {
  it("opens the case's prescription PDF in a new tab, signed in by the session cookie", async () => {
    const doctor = await createActiveDoctor();
    const created = await submitCase(await apiLogin(doctor.username, doctor.password));
    const page = await newPage(browser());
    await openSignedIn(page, doctor.username, doctor.password, `/cases/${created.CaseId}`);
    const print = page.getByRole('link', { name: 'Print' });
    await expect.poll(() => print.isVisible()).toBe(true);
    expect(await print.getAttribute('target')).toBe('_blank');
    const href = (await print.getAttribute('href'))!;
    expect(href).toBe(`/api/case/${created.CaseId}/prescription.pdf`);
    const answer = await page.evaluate(async (url) => {
      const response = await fetch(url);
      const bytes = new Uint8Array(await response.arrayBuffer());
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        start: String.fromCharCode(...bytes.subarray(0, 5)),
      };
    }, href);
    expect(answer).toEqual({ status: 200, type: 'application/pdf', start: '%PDF-' });
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'case-page-print');
  });
});
