import { maxPageSize, type CaseAttachment, type CaseRow } from '@portal/contract';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiLogin, createActiveDoctor, createStaff, e2eAdmin, uniqueName } from '../helpers/api.ts';
import {
  expectNoSeriousA11yViolations,
  launchBrowser,
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

let browser: Browser;
let doctor: Awaited<ReturnType<typeof createActiveDoctor>>;
beforeAll(async () => {
  browser = await launchBrowser();
  doctor = await createActiveDoctor();
});
afterAll(() => browser.close());

async function openCaseForm(page: Page, username: string, password: string, menuLabel: string) {
  await openSignedIn(page, username, password);
  await menuLink(page, menuLabel).click();
  await page.waitForURL('**/cases');
  await settle(page);
}

async function casesOf(userId: number, token: string): Promise<CaseRow[]> {
  return apiCall<CaseRow[]>('GET', `/case/get_cases_by_status/all/${userId}?pageSize=${maxPageSize}`, { token });
}

/** The option checked in a radio group, or null. */
async function checkedRadio(page: Page, group: string): Promise<string | null> {
  const radios = page.getByRole('radiogroup', { name: group, exact: true }).getByRole('radio');
  for (const radio of await radios.all()) if (await radio.isChecked()) return radio.getAttribute('value');
  return null;
}

/** The message is announced as the field's description: shown under that field, not just somewhere. */
const describes = (field: Locator, message: string) =>
  expect.poll(() => fieldDescription(field), { message }).toContain(message);
const describesNot = (field: Locator, message: string) =>
  expect.poll(() => fieldDescription(field), { message }).not.toContain(message);

describe('Case form', () => {
  // Four steps of axe and screenshots at two widths: more than the default time on a busy machine.
  it('lets a doctor fill the three steps, pick teeth in FDI, upload records and submit the case', async () => {
    const page = await newPage(browser);
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
    await pickRadio(page, 'Tooth Numbering', 'Universal');
    await expect.poll(() => moveTooth.inputValue()).toBe('1, 14');
    await pickRadio(page, 'Tooth Numbering', 'FDI');
    await expect.poll(() => moveTooth.inputValue()).toBe('18, 26');
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
  }, 150_000);

  it('shows every validation message under its field and sends nothing while one stands', async () => {
    const page = await newPage(browser);
    await openCaseForm(page, doctor.username, doctor.password, 'Add Cases');
    const token = await apiLogin(doctor.username, doctor.password);
    const casesBefore = (await casesOf(doctor.userId, token)).length;

    await goToStep(page, "Patients's Records");
    await page.getByRole('button', { name: 'Submit' }).click();
    // The first step with an error is shown, each message under its own field.
    const stepOneFields: [Locator, string][] = [
      [page.getByRole('textbox', { name: 'First Name' }), 'First Name is required'],
      [page.getByRole('textbox', { name: 'Last Name' }), 'Last Name is required'],
      [page.getByRole('textbox', { name: 'Date Of Birth' }), 'Date Of Birth is required'],
      [page.getByRole('combobox', { name: 'Clinic' }), 'Clinic is required'],
      [page.getByRole('combobox', { name: 'Arches To Treat' }), 'Arches To Treat is required'],
      [page.getByRole('combobox', { name: 'Nature of Patient' }), 'Nature of Patient is required'],
      [page.getByRole('combobox', { name: 'Aligner Shipment' }), 'Aligner Shipment is required'],
      [page.getByRole('textbox', { name: 'Chief Complaint' }), 'Chief Complaint is required'],
    ];
    for (const [field, message] of stepOneFields) await describes(field, message);
    expect(await page.getByRole('textbox', { name: 'First Name' }).getAttribute('aria-invalid')).toBe('true');
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'case-form-errors');

    // A message goes as soon as its field is filled.
    await page.getByRole('textbox', { name: 'First Name' }).fill('Ann');
    await describesNot(page.getByRole('textbox', { name: 'First Name' }), 'First Name is required');

    await goToStep(page, "Patients's Records");
    await describes(page.getByRole('radiogroup', { name: 'Impression Type' }), 'Impression Type is required');
    const acceptTerms = page.getByRole('checkbox', { name: /I accept the Terms and Conditions/ });
    await describes(acceptTerms, 'Terms and Conditions is required');
    await pickRadio(page, 'Impression Type', 'Digital Impression');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => toastShown(page, 'Maxillary Scan is required')).toBe(true);
    await goToStep(page, "Patients's Records");
    const maxillaryScan = page.getByRole('button', { name: 'Maxillary Scan', exact: true });
    await describes(maxillaryScan, 'Maxillary Scan is required');

    await chooseFiles(page, 'Maxillary Scan', [textFile('notes.txt')]);
    await describes(maxillaryScan, 'Only STL, ZIP, and RAR files are allowed!');
    expect(await maxillaryScan.textContent()).not.toContain('notes.txt');
    await chooseFiles(page, 'Maxillary Scan', [stlFile('upper.stl')]);
    await describesNot(maxillaryScan, 'Only STL, ZIP, and RAR files are allowed!');

    const front = page.getByRole('button', { name: 'Front', exact: true });
    await chooseFiles(page, 'Front', [await pictureFile('front.png', '#3a7bd5')]);
    await expect.poll(() => page.getByRole('img', { name: 'Front preview' }).isVisible()).toBe(true);
    await chooseFiles(page, 'Front', [textFile('front.txt')]);
    await describes(front, 'Only JPG and PNG files are allowed!');
    await expect.poll(() => page.getByRole('img', { name: 'Front preview' }).count()).toBe(0);
    expect(await front.textContent()).not.toContain('front');

    const otherFiles = page.getByRole('button', { name: 'Other Files', exact: true });
    await chooseFiles(page, 'Other Files', [await pictureFile('kept.png', '#2f9e44'), textFile('dropped.txt')]);
    await describes(otherFiles, 'Only JPG, PNG files are allowed!');
    expect(await otherFiles.textContent()).toContain('kept.png');
    expect(await otherFiles.textContent()).not.toContain('dropped.txt');

    await acceptTerms.check();
    await describesNot(acceptTerms, 'Terms and Conditions is required');
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'case-form-file-errors');

    // Step 1 still has errors: Submit goes back there and nothing is sent.
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectVisible(page, 'Last Name is required');
    await settle(page);
    expect((await casesOf(doctor.userId, token)).length).toBe(casesBefore);
  });

  it('keeps the form and shows the server refusal under its field when the upload is refused', async () => {
    const page = await newPage(browser);
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
    expect(new URL(page.url()).pathname).toBe('/cases');
    await goToStep(page, 'Case Details');
    expect(await page.getByRole('textbox', { name: 'First Name' }).inputValue()).toBe(firstname);
    const token = await apiLogin(doctor.username, doctor.password);
    expect((await casesOf(doctor.userId, token)).some((row) => row.FirstName === firstname)).toBe(false);
  });

  it('swaps two ranks when a taken one is chosen and clears any of them: no choice is ever stuck', async () => {
    const page = await newPage(browser);
    await openCaseForm(page, doctor.username, doctor.password, 'Add Cases');
    await goToStep(page, 'Treatment Instructions');
    const ranks = { IPR: 'First', Proclination: 'Second', Expansion: 'Third', Extraction: 'Fourth' };
    for (const [group, rank] of Object.entries(ranks)) await pickRadio(page, group, `${rank} preference`);
    const rankOf = (group: string) => checkedRadio(page, group);

    // Every rank stays open: Expansion takes IPR's, IPR gets Expansion's.
    for (const group of Object.keys(ranks)) {
      const radios = page.getByRole('radiogroup', { name: group, exact: true }).getByRole('radio');
      for (const radio of await radios.all()) expect(await radio.isEnabled(), group).toBe(true);
    }
    await pickRadio(page, 'Expansion', 'First preference');
    await expect.poll(() => rankOf('Expansion')).toBe('First preference');
    await expect.poll(() => rankOf('IPR')).toBe('Third preference');
    expect(await rankOf('Proclination')).toBe('Second preference');

    // A rank can be given up, then taken by another.
    await page.getByRole('button', { name: 'Clear Proclination' }).click();
    await expect.poll(() => rankOf('Proclination')).toBe(null);
    await pickRadio(page, 'Extraction', 'Second preference');
    await expect.poll(() => rankOf('Extraction')).toBe('Second preference');
    expect(await rankOf('Proclination')).toBe(null);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'case-form-ranks');
  });

  it('checks only its step on Next and ticks a step only when it is valid; Submit marks every step with errors', async () => {
    const page = await newPage(browser);
    await openCaseForm(page, doctor.username, doctor.password, 'Add Cases');
    const stepButton = (step: string) => page.getByRole('button', { name: step });
    const isTicked = (step: string) => stepButton(step).getByRole('img', { name: 'Complete' }).count();
    const needsAttention = (step: string) => stepButton(step).textContent();

    // Next on an empty step 1 stays there, with its messages, and ticks nothing; step 3 is not checked.
    await page.getByRole('button', { name: 'Next' }).click();
    await describes(page.getByRole('textbox', { name: 'First Name' }), 'First Name is required');
    await expect.poll(() => page.getByRole('textbox', { name: 'First Name' }).isVisible()).toBe(true);
    expect(await isTicked('Case Details')).toBe(0);
    expect(await needsAttention('Case Details')).toContain('Needs attention');
    expect(await needsAttention("Patients's Records")).not.toContain('Needs attention');

    // Filled, Next moves on and ticks it; going ahead by the step header ticks nothing.
    await fillCaseDetails(page, { firstname: uniqueName('Steps'), lastname: 'Patient', dob: '1995-06-07' });
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByRole('radiogroup', { name: 'Midline' }).isVisible()).toBe(true);
    await expect.poll(() => isTicked('Case Details')).toBe(1);
    await goToStep(page, "Patients's Records");
    await expect.poll(() => page.getByRole('radiogroup', { name: 'Impression Type' }).isVisible()).toBe(true);
    expect(await isTicked('Treatment Instructions')).toBe(0);
    await screenshots(page, 'case-form-steps');

    // An early Submit from step 1 with a new error there: every step with errors is marked, step 1 shown.
    await goToStep(page, 'Case Details');
    await page.getByRole('textbox', { name: 'Last Name' }).fill('');
    await page.getByRole('button', { name: 'Submit' }).click();
    await describes(page.getByRole('textbox', { name: 'Last Name' }), 'Last Name is required');
    await expect.poll(() => needsAttention("Patients's Records")).toContain('Needs attention');
    expect(await needsAttention('Case Details')).toContain('Needs attention');
    expect(await needsAttention('Treatment Instructions')).not.toContain('Needs attention');
  });

  const staffAccounts = [
    { who: 'the administrator', account: async () => e2eAdmin },
    { who: 'a Web user whose role has only the Add Case page', account: () => createStaff([6]) },
  ];
  it.each(staffAccounts)('lets $who pick the doctor and submit a case for them', async ({ who, account }) => {
    const { username, password } = await account();
    const page = await newPage(browser);
    await openCaseForm(page, username, password, 'Add Case');
    const clinic = page.getByRole('combobox', { name: 'Clinic' });
    expect(await clinic.isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Submit' }).click();
    await describes(page.getByRole('combobox', { name: 'Doctor' }), 'Doctor is required');

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
