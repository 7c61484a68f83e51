import { assistantMessages, endpoints } from '@portal/contract';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  apiCall,
  apiLogin,
  createActiveDoctor,
  createStaff,
  passwordLinkMailedTo,
  portalApi,
  uniqueName,
} from '../helpers/api.ts';
import {
  expectNoSeriousA11yViolations,
  useBrowser,
  menuLink,
  newPage,
  openSignedIn,
  screenshots,
  settle,
  signIn,
} from '../helpers/browser.ts';
import { chooseFiles, fillCaseDetails, goToStep, pickRadio } from '../helpers/case-form.ts';
import { fieldDescription, selectOption } from '../helpers/forms.ts';
import { pictureFile } from '../helpers/pictures.ts';
import { stageFiles } from '../helpers/plans.ts';
import { expectToast } from '../helpers/shown.ts';
import { scaled } from '../helpers/test-time.ts';

/**
 * Issue 24 (docs/decisions/assistants.md § Assistants): a doctor invites an assistant on the Assistants
 * screen, the assistant sets a password from the mail and submits a case for the doctor, the
 * doctor revokes them and the assistant no longer sees the doctor's cases.
 */
const browser = useBrowser();
let doctor: Awaited<ReturnType<typeof createActiveDoctor>>;

vi.setConfig({ expect: { poll: { timeout: scaled(20_000) } } });

beforeAll(async () => {
  doctor = await createActiveDoctor();
});

/** A plan version from the lab (Dashboard staff), awaiting the doctor's approval. */
async function uploadPlanAsLab(caseId: number) {
  const staff = await createStaff([1]);
  const form = new FormData();
  form.append('summary', JSON.stringify({ upperStages: 1, lowerStages: 0, ipr: [], attachmentTeeth: [], notes: '' }));
  for (const file of stageFiles(1, 0)) form.append('stages', new Blob([new Uint8Array(file.data)]), file.name);
  await portalApi().call(
    endpoints.planUpload,
    { params: { caseId }, body: form },
    { token: await apiLogin(staff.username, staff.password) },
  );
}

const textbox = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });

async function openAssistants(page: Page) {
  await openSignedIn(page, doctor.username, doctor.password);
  await menuLink(page, 'Assistants').click();
  await page.waitForURL('**/assistants');
  await settle(page);
}

/** The assistant's row in the doctor's list, by their name. */
const rowOf = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Your assistants' }).getByRole('listitem', { name });

/** axe at a phone's width and a desktop's, the page left at the desktop's. */
async function expectAccessibleOnPhoneAndDesktop(page: Page) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSeriousA11yViolations(page);
  }
}

describe('assistants', () => {
  it('invite, set a password from the mail, submit a case for the doctor, and lose it on revoke', async () => {
    const email = `${uniqueName('asst')}@example.com`;
    const lastName = uniqueName('Helper');
    const name = `Asta ${lastName}`;
    const password = 'assistant-passphrase';

    // The doctor invites on the Assistants screen; the contract's messages come first.
    const doctorPage = await newPage(browser());
    await openAssistants(doctorPage);
    await doctorPage.getByRole('button', { name: 'Send invitation' }).click();
    await expect.poll(() => fieldDescription(textbox(doctorPage, 'First Name'))).toContain('First Name is required');
    await textbox(doctorPage, 'Email').fill('not-an-address');
    await expect.poll(() => fieldDescription(textbox(doctorPage, 'Email'))).toContain('Email is not valid');
    await textbox(doctorPage, 'Email').fill(email);
    await textbox(doctorPage, 'First Name').fill('Asta');
    await textbox(doctorPage, 'Last Name').fill(lastName);
    await doctorPage.getByRole('button', { name: 'Send invitation' }).click();
    await expectToast(doctorPage, assistantMessages.invited);
    const row = rowOf(doctorPage, name);
    await expect.poll(() => row.textContent()).toContain(email);
    expect(await row.textContent()).toContain('Invited');
    // Send again (a new link; the first one lasts 7 days) waits a few minutes after an
    // invitation: the doctor is told why, and the row stays invited.
    await row.getByRole('button', { name: `Send the invitation to ${name} again` }).click();
    await expectToast(doctorPage, assistantMessages.tooSoon);
    expect(await row.textContent()).toContain('Invited');
    await expectAccessibleOnPhoneAndDesktop(doctorPage);
    await screenshots(doctorPage, 'assistants');

    // The assistant follows the mail's link, which reads as an invitation naming the doctor
    // and their clinic, sets a password and signs in with the e-mail.
    const link = await passwordLinkMailedTo(email);
    const assistantPage = await newPage(browser());
    await assistantPage.goto(link);
    await expect
      .poll(() => assistantPage.getByRole('heading', { name: 'Welcome to Aligner Portal' }).isVisible())
      .toBe(true);
    expect(await assistantPage.getByRole('main').textContent()).toMatch(
      /Ada Lovelace \(Smile Clinic\) invited you to Aligner Portal/,
    );
    expect(await assistantPage.getByText('Reset Password').count()).toBe(0);
    await expectAccessibleOnPhoneAndDesktop(assistantPage);
    await screenshots(assistantPage, 'assistant-invitation');
    await textbox(assistantPage, 'Password').fill(password);
    await textbox(assistantPage, 'Confirm Password').fill(password);
    await assistantPage.getByRole('button', { name: 'Set Password' }).click();
    await assistantPage.waitForURL((url) => url.pathname === '/');
    await signIn(assistantPage, email, password);
    await settle(assistantPage);
    // The doctors' menu, without the doctor's own Assistants screen.
    await expect.poll(() => menuLink(assistantPage, 'Add Cases').isVisible()).toBe(true);
    expect(await menuLink(assistantPage, 'Inbox').isVisible()).toBe(true);
    expect(await menuLink(assistantPage, 'Assistants').count()).toBe(0);
    await expectAccessibleOnPhoneAndDesktop(assistantPage);
    await screenshots(assistantPage, 'assistant-dashboard');

    // Add Case: one doctor, so no Doctor to pick; the doctor's clinic is offered.
    await menuLink(assistantPage, 'Add Cases').click();
    await assistantPage.waitForURL('**/cases');
    await settle(assistantPage);
    expect(await assistantPage.getByRole('combobox', { name: 'Doctor' }).count()).toBe(0);
    const firstname = uniqueName('Asstpat');
    await fillCaseDetails(assistantPage, { firstname, lastname: 'Patient', dob: '1995-06-15' });
    await goToStep(assistantPage, "Patients's Records");
    await pickRadio(assistantPage, 'Impression Type', 'PVS Impression');
    await pickRadio(assistantPage, 'Image Type', 'Composite');
    await chooseFiles(assistantPage, 'Composite Image', [await pictureFile('composite.png', '#0c8599')]);
    await assistantPage.getByRole('checkbox', { name: /I accept the Terms and Conditions/ }).check();
    await assistantPage.getByRole('button', { name: 'Submit' }).click();
    await expectToast(assistantPage, 'Case submitted successfully');
    await assistantPage.waitForURL(/\/cases\/\d+$/);
    const casePath = new URL(assistantPage.url()).pathname;
    // The case page offers the assistant no status change (the lab's), and for a plan awaiting
    // approval no decision or patient link (the doctor's), saying why.
    expect(await assistantPage.getByRole('button', { name: 'Update Status' }).count()).toBe(0);
    await uploadPlanAsLab(Number(casePath.split('/').at(-1)));
    await assistantPage.reload();
    await expect
      .poll(() => assistantPage.getByText("Only the case's doctor can approve version 1").isVisible())
      .toBe(true);
    for (const action of ['Approve', 'Request changes', 'Patient links']) {
      expect(await assistantPage.getByRole('button', { name: action }).count(), action).toBe(0);
    }
    expect(await assistantPage.getByRole('button', { name: 'View version 1 in 3D' }).isVisible()).toBe(true);

    await menuLink(assistantPage, 'Dashboard').click();
    await settle(assistantPage);
    await expect.poll(() => assistantPage.getByText(firstname).first().isVisible()).toBe(true);
    // The plan waits for the doctor, not for the assistant who reads the tile.
    const awaiting = assistantPage
      .getByRole('group', { name: 'Filter cases by status' })
      .getByRole('button', { name: /^Awaiting the doctor's approval/ });
    await expect.poll(() => awaiting.textContent()).toMatch(/approval\s*1$/);
    // The doctor's name is a column (an assistant may serve several); the lab's technician is not.
    expect(await assistantPage.getByRole('columnheader', { name: 'Doctor' }).count()).toBe(1);
    expect(await assistantPage.getByRole('columnheader', { name: 'Technician' }).count()).toBe(0);

    // The doctor sees the case, its timeline naming the assistant who submitted it.
    await doctorPage.goto(casePath);
    const timeline = doctorPage.getByRole('region', { name: 'Status' }).getByLabel('Timeline');
    await expect.poll(() => timeline.textContent()).toContain(`by ${name}`);

    // Revoke asks first, naming the assistant.
    await openAssistants(doctorPage);
    await expect.poll(() => rowOf(doctorPage, name).textContent()).toContain('Active');
    await rowOf(doctorPage, name)
      .getByRole('button', { name: `Revoke ${name}` })
      .click();
    const dialog = doctorPage.getByRole('dialog');
    await expect.poll(() => dialog.textContent()).toContain(`${name} (${email})`);
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await expectToast(doctorPage, assistantMessages.revoked);
    await expect.poll(() => rowOf(doctorPage, name).count()).toBe(0);

    // The assistant's next page load no longer shows the doctor's case.
    await assistantPage.reload();
    await settle(assistantPage);
    await expect.poll(() => assistantPage.getByText(firstname).count()).toBe(0);
    await assistantPage.goto(casePath);
    await expect.poll(() => assistantPage.getByText('Case not found').isVisible()).toBe(true);
  });

  it('refuses the Assistants screen to an assistant who opens its address', async () => {
    // Checked here with a fresh assistant of the same doctor, through the same screens.
    const page = await newPage(browser());
    await openAssistants(page);
    const email = `${uniqueName('asst')}@example.com`;
    await textbox(page, 'Email').fill(email);
    await textbox(page, 'First Name').fill('Otto');
    await textbox(page, 'Last Name').fill(uniqueName('Aide'));
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await expectToast(page, assistantMessages.invited);
    const link = await passwordLinkMailedTo(email);
    const assistantPage = await newPage(browser(), 375);
    await assistantPage.goto(link);
    await textbox(assistantPage, 'Password').fill('otto-passphrase');
    await textbox(assistantPage, 'Confirm Password').fill('otto-passphrase');
    await assistantPage.getByRole('button', { name: 'Set Password' }).click();
    await assistantPage.waitForURL((url) => url.pathname === '/');
    await openSignedIn(assistantPage, email, 'otto-passphrase', '/assistants');
    await expect.poll(() => assistantPage.getByText('You do not have access to this page.').isVisible()).toBe(true);
  });

  it('lets an assistant of two doctors pick the doctor on Add Case, and submits for the one picked', async () => {
    const secondLastname = uniqueName('Byron');
    const second = await createActiveDoctor({ lastname: secondLastname });
    const email = `${uniqueName('asst')}@example.com`;
    const invitation = { email, firstName: 'Bea', lastName: uniqueName('Aide') };
    await apiCall('POST', '/doctor/assistants', {
      token: await apiLogin(doctor.username, doctor.password),
      json: invitation,
    });
    const token = new URLSearchParams((await passwordLinkMailedTo(email)).split('?')[1]).get('token');
    await apiCall('POST', '/doctor/reset_password', { json: { token, newPassword: 'bea-passphrase' } });
    await apiCall('POST', '/doctor/assistants', {
      token: await apiLogin(second.username, second.password),
      json: invitation,
    });

    const page = await newPage(browser());
    await openSignedIn(page, email, 'bea-passphrase', '/cases');
    await settle(page);
    const clinic = page.getByRole('combobox', { name: 'Clinic' });
    await expect.poll(() => clinic.isDisabled()).toBe(true);
    await selectOption(page, 'Doctor', `Ada ${secondLastname}`);
    await expect.poll(() => clinic.isDisabled()).toBe(false);
    const firstname = uniqueName('Twopat');
    await fillCaseDetails(page, { firstname, lastname: 'Patient', dob: '1988-02-29' });
    await expectNoSeriousA11yViolations(page);
    await goToStep(page, "Patients's Records");
    await pickRadio(page, 'Impression Type', 'PVS Impression');
    await pickRadio(page, 'Image Type', 'Composite');
    await chooseFiles(page, 'Composite Image', [await pictureFile('composite.png', '#0c8599')]);
    await page.getByRole('checkbox', { name: /I accept the Terms and Conditions/ }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, 'Case submitted successfully');

    const ofSecond = await apiCall<{ FirstName: string; DoctorUserId: number }[]>(
      'GET',
      '/case/get_cases_by_status/all/0?pageSize=30',
      { token: await apiLogin(second.username, second.password) },
    );
    expect(ofSecond.find((row) => row.FirstName === firstname)).toMatchObject({ DoctorUserId: second.userId });
  });
});
