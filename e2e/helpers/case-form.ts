import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { asciiStl } from './cases.ts';
import { selectOption } from './forms.ts';

/** A file as the browser's file chooser hands it over. */
export interface ChosenFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

export const stlFile = (name: string): ChosenFile => ({ name, mimeType: 'model/stl', buffer: Buffer.from(asciiStl()) });

export async function pickRadio(page: Page, group: string, option: string): Promise<void> {
  await page
    .getByRole('radiogroup', { name: group, exact: true })
    .getByRole('radio', { name: option, exact: true })
    .check();
}

/** Clicks a file field's button and answers the browser's file chooser with one or more files. */
export async function chooseFiles(page: Page, label: string, files: ChosenFile[]): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: label, exact: true }).click();
  await (await chooser).setFiles(files);
}

export async function goToStep(page: Page, step: 'Case Details' | 'Treatment Instructions' | "Patients's Records") {
  await page.getByRole('button', { name: step }).click();
}

/** Waits until the text is on the screen. */
export async function expectVisible(page: Page, text: string | RegExp): Promise<void> {
  await expect.poll(() => page.getByText(text).first().isVisible(), { message: String(text) }).toBe(true);
}

/** Step 1's required fields, for a doctor whose clinic is 'Smile Clinic' (as createActiveDoctor makes). */
export async function fillCaseDetails(page: Page, patient: { firstname: string; lastname: string; dob: string }) {
  await page.getByRole('textbox', { name: 'First Name' }).fill(patient.firstname);
  await page.getByRole('textbox', { name: 'Last Name' }).fill(patient.lastname);
  const dob = page.getByRole('textbox', { name: 'Date Of Birth' });
  await dob.click();
  await dob.pressSequentially(patient.dob);
  await page.keyboard.press('Escape');
  await selectOption(page, 'Clinic', 'Smile Clinic');
  await selectOption(page, 'Arches To Treat', 'Both');
  await selectOption(page, 'Nature of Patient', 'Local');
  await selectOption(page, 'Aligner Shipment', 'Batches');
  await page.getByRole('textbox', { name: 'Chief Complaint' }).fill('Crowding of the lower incisors');
}
