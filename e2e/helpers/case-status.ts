import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The modal that asks before a case's status changes (the case page's Status section). */
export const statusDialog = (page: Page) => page.getByRole('dialog', { name: 'Change the case status' });

/** Picks a status on the open case page and presses Update Status; resolves once the confirmation modal shows. */
export async function chooseStatus(page: Page, label: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Case status' }).click();
  await page.getByRole('option', { name: label }).click();
  await page.getByRole('button', { name: 'Update Status' }).click();
  await expect.poll(() => statusDialog(page).isVisible()).toBe(true);
}
