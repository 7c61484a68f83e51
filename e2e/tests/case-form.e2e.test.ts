import { maxPageSize, type CaseAttachment, type CaseRow } from '@portal/contract';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiCall, apiLogin, createActiveDoctor, createStaff, e2eAdmin, uniqueName } from '../helpers/api.ts';
import {
  expectNoSeriousA11yViolations,
  useBrowser,
  newPage,
  screenshots,
  settle,
  openSignedIn,
  menuLink,
} from '../helpers/browser.ts';
import { chooseFiles, expectVisible, fillCaseDetails, goToStep, pickRadio, stlFile } from '../helpers/case-form.ts';
import { fieldDescription, selectOption } from '../helpers/forms.ts';
import { pictureFile, textFile } from '../helpers/pictures.ts';
import { overlayShown, toastShown } from '../helpers/shown.ts';
import { scaled } from '../helpers/test-time.ts';

// The bound of its slowest test (the others need less), times the run's factor (e2e/helpers/test-time.ts).
vi.setConfig({ testTimeout: scaled(150_000) });

const browser = useBrowser();
let doctor: Awaited<ReturnType<typeof createActiveDoctor>>;
beforeAll(async () => {
  doctor = await createActiveDoctor();
});

async function openCaseForm(page: Page, username: string, password: string, menuLabel: string) {
  await openSignedIn(page, username, password);
  await menuLink(page, menuLabel).click();
  await page.waitForURL('**/cases');
  await settle(page);
}

async function casesOf(userId: number, token: string): Promise<CaseRow[]> {
  return apiCall<CaseRow[]>('GET', `/case/get_cases_by_status/all/${userId}?pageSize=${maxPageSize}`, { token });
}

/** The message is announced as the field's description: shown under that field, not just somewhere. */
const describes = (field: Locator, message: string) =>
  expect.poll(() => fieldDescription(field), { message }).toContain(message);
const describesNot = (field: Locator, message: string) =>
  expect.poll(() => fieldDescription(field), { message }).not.toContain(message);

// The form's own rules are checked without a browser in
// apps/web/src/features/cases/components/case-form/case-form.test.tsx: every validation message
// under its field and nothing sent while one stands, Next and the step ticks, the rank swaps.
// Here the messages are scanned by axe where the journeys show them.
describe('Case form', () => {
  // Four steps of axe and screenshots at two widths: more than the default time on a busy machine.
  it('lets a doctor fill the three steps, pick teeth in FDI, upload records and submit the case', async () => {
    const page = await newPage(browser());
    await openCaseForm(page, doctor.username, doctor.password, 'Add Cases');
    const firstname = uniqueName('Pat');

    // Step 1: Case Details
    await fillCaseDetails(page, { firstname, lastname: 'Patient', dob: '2001-03-05' });
    await selectOption(page, 'Gender', 'Female');
    await selectOption(page, 'Retainer Shipment', 'Upon request only');
    await selectOption(page, 'Passive Aligner', 'No');
    expect(await page.getByRole('textbox', { name: 'Date Of Birth' }).inputValue()).toBe('2001-03-05');
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'case-form-step-1');
    await page.getByRole('button', { name: 'Next' }).click();

    // Step 2: Treatment Instructions, with the spec's defaults already chosen
    expect(
      await page
        .getByRole('radiogroup', { name: 'Midline' })
        .getByRole('radio', { name: 'Improve', exact: true })
        .isChecked(),
    ).toBe(true);
    expect(
      await page
        .getByRole('radiogroup', { name: 'Cross Bite' })
        .getByRole('radio', { name: 'Correct', exact: true })
        .isChecked(),
    ).toBe(true);
    await pickRadio(page, 'Midline', 'Move upper only');
    await pickRadio(page, 'Overbite', 'Maintain');
    await selectOption(page, 'Right Canine', 'Class-I (if possible)');
    await selectOption(page, 'Left Molar', 'Maintain');
    await pickRadio(page, 'IPR', 'First preference');
    await pickRadio(page, 'Proclination', 'Second preference');
    await pickRadio(page, 'Expansion', 'Third preference');
    await pickRadio(page, 'Extraction', 'Fourth preference');
    await selectOption(page, 'IPR Prescription', 'Initial stage IPR');
    await selectOption(page, 'Auxiliary Type (if required)', 'Attachment');
    await pickRadio(page, 'Tooth Numbering', 'FDI');
    const moveTooth = page.getByRole('textbox', { name: "Don't Move Tooth" });
    expect(await moveTooth.inputValue()).toBe('N/A');

    await page.getByRole('button', { name: "Select teeth: Don't Move Tooth" }).click();
    const picker = page.getByRole('dialog', { name: 'Select Tooth' });
    await expect.poll(() => picker.isVisible()).toBe(true);
    await picker.getByRole('checkbox', { name: '18: Upper right 8 (tooth 1)' }).check();
    await picker.getByRole('checkbox', { name: /Upper left 6 \(tooth 14\)/ }).check();
    await picker.getByRole('checkbox', { name: /Lower right 6 \(tooth 30\)/ }).check();
    await picker.getByRole('checkbox', { name: /Lower right 6 \(tooth 30\)/ }).uncheck();
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'case-form-tooth-picker');
    await picker.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => moveTooth.inputValue()).toBe('18, 26');
    // The case's numbering is a prescription field: the teeth stay in the doctor's own notation, FDI
    // here (docs/decisions/tooth-notation.md).
    await pickRadio(page, 'Tooth Numbering', 'Universal');
    expect(await moveTooth.inputValue()).toBe('18, 26');
    await pickRadio(page, 'Tooth Numbering', 'FDI');
    expect(await moveTooth.inputValue()).toBe('18, 26');
    await page.getByRole('textbox', { name: 'Special Instructions' }).fill('Keep the bridge');
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'case-form-step-2');
    await page.getByRole('button', { name: 'Next' }).click();

    // Step 3: Patients's Records
    await pickRadio(page, 'Impression Type', 'Digital Impression');
    await expectVisible(page, 'Maxillary scans are required when submitting a digital impression.');
    await chooseFiles(page, 'Maxillary Scan', [stlFile('upper.stl')]);
    await chooseFiles(page, 'Mandibular Scan', [stlFile('lower.stl')]);
    expect(
      await page.getByRole('radiogroup', { name: 'Image Type' }).getByRole('radio', { name: 'Individual' }).isChecked(),
    ).toBe(true);
    await chooseFiles(page, 'Front Smiling', [await pictureFile('smile.png', '#e8590c')]);
    await chooseFiles(page, 'OPV Image', [await pictureFile('opg.png', '#868e96')]);
    const preview = page.getByRole('img', { name: 'Front Smiling preview' });
    await expect.poll(() => preview.isVisible()).toBe(true);
    expect((await preview.boundingBox())?.width).toBe(150);
    await chooseFiles(page, 'Other Files', [
      await pictureFile('extra-1.png', '#1971c2'),
      await pictureFile('extra-2.png', '#9c36b5'),
    ]);

    await page.getByRole('button', { name: 'Terms and Conditions' }).click();
    const terms = page.getByRole('dialog', { name: 'Terms and Conditions' });
    await expect.poll(() => terms.locator('iframe[title="Terms and Conditions"]').isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => terms.isVisible()).toBe(false);
    await page.getByRole('checkbox', { name: /I accept the Terms and Conditions/ }).check();
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'case-form-step-3');

    await page.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => overlayShown(page, /\d+% uploaded/)).toBe(true);
    await expect.poll(() => toastShown(page, /^Case submitted successfully \(AL-/)).toBe(true);

    const token = await apiLogin(doctor.username, doctor.password);
    const saved = (await casesOf(doctor.userId, token)).find((row) => row.FirstName === firstname);
    // The doctor lands on the new case's page, its tracking number shown (issue 9).
    await page.waitForURL(`**/cases/${saved!.CaseId}`);
    await expect.poll(() => page.getByRole('heading', { name: `Case ${saved!.TrackingNo}` }).isVisible()).toBe(true);
    await settle(page);
    expect(saved).toMatchObject({
      LastName: 'Patient',
      DOB: '2001-03-05',
      Gender: 'Female',
      ArchesToTreat: 'Both',
      NatureOfPatient: 'Local',
      RetainerShipmentPreference: 'Upon request only',
      PassiveAligners: 'No',
      AlignerShipmentPreference: 'Batches',
      ChiefComplaint: 'Crowding of the lower incisors',
      Midline: 'Move upper only',
      Overjet: 'Improve',
      Overbite: 'Maintain',
      CrossBite: 'Correct',
      RightCanine: 'Class-I (if possible)',
      LeftMolar: 'Maintain',
      IPR: 'First preference',
      Proclination: 'Second preference',
      Expansion: 'Third preference',
      Extraction: 'Fourth preference',
      IPRPrescription: 'Initial stage IPR',
      AuxiliaryType: 'Attachment',
      ToothNumberingSystem: 'FDI',
      MoveTooth: '1,14',
      NoElastic: 'N/A',
      SpecialInstruction: 'Keep the bridge',
      ImpressionType: 'Digital Impression',
      ImageType: 'Individual',
    });
    const attachments = await apiCall<CaseAttachment[]>(
      'GET',
      `/case/get_cases_attachments_by_case_id/${saved!.CaseId}`,
      { token },
    );
    expect(attachments.map((file) => file.FileType).sort()).toEqual(
      ['FrontSmiling', 'MandibularScan', 'MaxillaryScan', 'OPV', 'OtherFile', 'OtherFile'].sort(),
    );
  });

  it('keeps the form and shows the server refusal under its field when the upload is refused', async () => {
    const page = await newPage(browser());
    await openCaseForm(page, doctor.username, doctor.password, 'Add Cases');
    const firstname = uniqueName('Refused');
    await fillCaseDetails(page, { firstname, lastname: 'Patient', dob: '1990-01-31' });
    await goToStep(page, "Patients's Records");
    await pickRadio(page, 'Impression Type', 'Digital Impression');
    // Named like a scan, but its bytes are not one: only the server can tell.
    await chooseFiles(page, 'Maxillary Scan', [{ ...textFile('fake.stl'), mimeType: 'model/stl' }]);
    await page.getByRole('checkbox', { name: /I accept the Terms and Conditions/ }).check();
    await page.getByRole('button', { name: 'Submit' }).click();

    await expect.poll(() => toastShown(page, 'Only STL, ZIP, and RAR files are allowed!')).toBe(true);
    await describes(
      page.getByRole('button', { name: 'Maxillary Scan', exact: true }),
      'Only STL, ZIP, and RAR files are allowed!',
    );
    // A message under a file field, as a person sees it: axe and the screenshot.
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'case-form-file-errors');
    expect(new URL(page.url()).pathname).toBe('/cases');
    await goToStep(page, 'Case Details');
    expect(await page.getByRole('textbox', { name: 'First Name' }).inputValue()).toBe(firstname);
    const token = await apiLogin(doctor.username, doctor.password);
    expect((await casesOf(doctor.userId, token)).some((row) => row.FirstName === firstname)).toBe(false);
  });

  const staffAccounts = [
    { who: 'the administrator', account: async () => e2eAdmin },
    { who: 'a Web user whose role has only the Add Case page', account: () => createStaff([6]) },
  ];
  it.each(staffAccounts)('lets $who pick the doctor and submit a case for them', async ({ who, account }) => {
    const { username, password } = await account();
    const page = await newPage(browser());
    await openCaseForm(page, username, password, 'Add Case');
    const clinic = page.getByRole('combobox', { name: 'Clinic' });
    expect(await clinic.isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Submit' }).click();
    await describes(page.getByRole('combobox', { name: 'Doctor' }), 'Doctor is required');
    // Every message of step 1 under its field, as a person sees them: axe and the screenshot.
    if (who === 'the administrator') {
      await describes(page.getByRole('textbox', { name: 'Chief Complaint' }), 'Chief Complaint is required');
      await expectNoSeriousA11yViolations(page);
      await screenshots(page, 'case-form-errors');
    }

    await page.getByRole('combobox', { name: 'Doctor' }).fill(doctor.username);
    await page.getByRole('option', { name: new RegExp(doctor.username) }).click();
    await describesNot(page.getByRole('combobox', { name: 'Doctor' }), 'Doctor is required');
    await expect.poll(() => clinic.isDisabled()).toBe(false);
    const firstname = uniqueName('Staffpat');
    await fillCaseDetails(page, { firstname, lastname: 'Walker', dob: '1999-12-31' });
    await expectNoSeriousA11yViolations(page);
    if (who === 'the administrator') await screenshots(page, 'case-form-staff');

    await goToStep(page, "Patients's Records");
    await pickRadio(page, 'Impression Type', 'PVS Impression');
    await pickRadio(page, 'Image Type', 'Composite');
    await expect.poll(() => page.getByRole('button', { name: 'Front Smiling' }).count()).toBe(0);
    await chooseFiles(page, 'Composite Image', [await pictureFile('composite.png', '#0c8599')]);
    await page.getByRole('checkbox', { name: /I accept the Terms and Conditions/ }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => toastShown(page, 'Case submitted successfully')).toBe(true);

    const token = await apiLogin(doctor.username, doctor.password);
    const saved = (await casesOf(doctor.userId, token)).find((row) => row.FirstName === firstname);
    // The administrator may read the case and lands on its page; Add Case alone stays on an emptied form.
    if (who === 'the administrator') {
      await page.waitForURL(`**/cases/${saved!.CaseId}`);
      await expect.poll(() => page.getByRole('heading', { name: `Case ${saved!.TrackingNo}` }).isVisible()).toBe(true);
    } else {
      expect(new URL(page.url()).pathname).toBe('/cases');
      await expect.poll(() => page.getByRole('combobox', { name: 'Doctor' }).inputValue()).toBe('');
    }
    expect(saved).toMatchObject({
      LastName: 'Walker',
      DOB: '1999-12-31',
      ImpressionType: 'PVS Impression',
      ImageType: 'Composite',
      DoctorUserId: doctor.userId,
    });
    const attachments = await apiCall<CaseAttachment[]>(
      'GET',
      `/case/get_cases_attachments_by_case_id/${saved!.CaseId}`,
      { token },
    );
    expect(attachments.map((file) => file.FileType)).toEqual(['CompositeImage']);
  });
});
