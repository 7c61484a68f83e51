import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiCall, apiLogin, createActiveDoctor, e2eAdmin } from '../helpers/api.ts';
import {
  artifactsDir,
  expectNoSeriousA11yViolations,
  newPage,
  screenshots,
  openSignedIn,
  useBrowser,
} from '../helpers/browser.ts';
import { chooseFiles, stlFile } from '../helpers/case-form.ts';
import { submitCase } from '../helpers/cases.ts';
import { expectToast } from '../helpers/shown.ts';

/** Issue 10: a refinement ordered from a case page (docs/decisions/cases.md § Orders from a case). */

const browser = useBrowser();

const radioChecked = (page: Page, group: string, option: string) =>
  page
    .getByRole('radiogroup', { name: group, exact: true })
    .getByRole('radio', { name: option, exact: true })
    .isChecked();

describe('Orders from a case', () => {
  it("names the case's doctor in the staff's Doctor picker, read by id (the doctor list is paged)", async () => {
    const doctor = await createActiveDoctor();
    const parent = await submitCase(await apiLogin(doctor.username, doctor.password));
    const page = await newPage(browser());
    // As in a lab of thousands: the doctor is on no page of the picker's own search.
    await page.route(
      (url) => url.pathname === '/api/doctor/get_doctors_list' && url.searchParams.get('active') === 'true',
      (route) => route.fulfill({ json: [], headers: { 'x-total-count': '0' } }),
    );
    await openSignedIn(page, e2eAdmin.username, e2eAdmin.password, `/cases?from=${parent.CaseId}&order=Refinement`);
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Doctor' }).inputValue())
      .toContain(`(${doctor.username})`);
  });

  it('orders a refinement from the case page: the form is prefilled, the new case names its parent, the parent links to it', async () => {
    const doctor = await createActiveDoctor();
    const token = await apiLogin(doctor.username, doctor.password);
    const parent = await submitCase(token, undefined, {
      firstname: 'Łucja',
      lastname: 'Orderly',
      midline: 'Maintain',
      complaint: 'Relapse after the first series',
      moveTooth: '3,14',
    });
    const page = await newPage(browser());
    await openSignedIn(page, doctor.username, doctor.password, `/cases/${parent.CaseId}`);
    const orderButton = page.getByRole('button', { name: 'Order from this case' });
    await expect.poll(() => orderButton.isVisible()).toBe(true);
    await expectNoSeriousA11yViolations(page);
    await orderButton.click();
    await expect.poll(() => page.getByRole('menuitem', { name: 'Refinement' }).isVisible()).toBe(true);
    await page.screenshot({ path: path.join(artifactsDir, 'case-orders-menu-1280.png') });
    await page.getByRole('menuitem', { name: 'Refinement' }).click();
    await page.waitForURL(`**/cases?from=${parent.CaseId}&order=Refinement`);

    // Prefilled from the parent: patient, complaint, instructions and teeth; the files are not.
    const notice = page.getByRole('alert').filter({ hasText: 'New Refinement' });
    await expect.poll(() => notice.isVisible()).toBe(true);
    expect(await notice.textContent()).toContain(`Refinement of ${parent.TrackingNo}`);
    expect(await page.getByRole('textbox', { name: 'First Name' }).inputValue()).toBe('Łucja');
    expect(await page.getByRole('textbox', { name: 'Last Name' }).inputValue()).toBe('Orderly');
    expect(await page.getByRole('textbox', { name: 'Chief Complaint' }).inputValue()).toBe(
      'Relapse after the first series',
    );
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'case-orders-form');
    await page.getByRole('button', { name: 'Treatment Instructions' }).click();
    await expect.poll(() => radioChecked(page, 'Midline', 'Maintain')).toBe(true);
    await page.getByRole('button', { name: "Patients's Records" }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Maxillary Scan', exact: true }).isVisible()).toBe(true);
    await chooseFiles(page, 'Maxillary Scan', [stlFile('refined-upper.stl')]);
    await page.getByRole('checkbox', { name: /I accept the Terms and Conditions/ }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, /^Case submitted successfully \(AL-/);

    // The new case's page names its parent.
    const parentDetail = await apiCall<{ orders: { caseId: number; trackingNo: string; orderType: string }[] }>(
      'GET',
      `/case/${parent.CaseId}`,
      { token },
    );
    expect(parentDetail.orders).toHaveLength(1);
    const child = parentDetail.orders[0]!;
    expect(child.orderType).toBe('Refinement');
    await page.waitForURL(`**/cases/${child.caseId}`);
    const parentLink = page.getByRole('link', { name: parent.TrackingNo }).first();
    await expect.poll(() => parentLink.isVisible()).toBe(true);
    await expect.poll(() => page.getByText(`Refinement of ${parent.TrackingNo}`).first().isVisible()).toBe(true);
    const childDetail = await apiCall<Record<string, unknown>>('GET', `/case/${child.caseId}`, { token });
    expect(childDetail).toMatchObject({ FirstName: 'Łucja', Midline: 'Maintain', parentCaseId: parent.CaseId });
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'case-orders-child');

    // The parent's timeline and its orders link to the child.
    await parentLink.click();
    await page.waitForURL(`**/cases/${parent.CaseId}`);
    const timeline = page.getByRole('region', { name: 'Status' });
    await expect.poll(() => timeline.getByText('Refinement ordered').isVisible()).toBe(true);
    const orders = page.getByRole('region', { name: 'Orders from this case' });
    await expect.poll(() => orders.getByRole('link', { name: child.trackingNo }).isVisible()).toBe(true);
    await screenshots(page, 'case-orders-parent');
    await timeline.getByRole('link', { name: child.trackingNo }).click();
    await page.waitForURL(`**/cases/${child.caseId}`);
    await expect.poll(() => page.getByRole('heading', { name: `Case ${child.trackingNo}` }).isVisible()).toBe(true);
  });
});
