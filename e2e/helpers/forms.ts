import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { scaled } from './test-time.ts';

/**
 * The text a screen reader announces as a field's description (its error or hint), read
 * through aria-describedby; this ties a message to its field, not just to the page.
 */
export async function fieldDescription(field: Locator): Promise<string> {
  const ids = (await field.getAttribute('aria-describedby'))?.split(/\s+/).filter(Boolean) ?? [];
  const page = field.page();
  const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
  return texts.filter(Boolean).join(' ');
}

/** Picks a file as a person does: click the control, answer the file chooser. */
export async function chooseFile(
  page: Page,
  control: Locator,
  file: { name: string; mimeType: string; buffer: Buffer },
): Promise<void> {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), control.click()]);
  await chooser.setFiles(file);
}

/**
 * Picks an option of a Mantine Select by its label, optionally narrowing a long list by
 * typing, until the field shows it: a list that redraws as its data arrives can close under
 * a click.
 */
export async function selectOption(page: Page, label: string, option: string, search?: string): Promise<void> {
  const field = page.getByRole('combobox', { name: label, exact: true });
  const choice = page.getByRole('option', { name: option, exact: true }).first();
  await expect
    .poll(
      async () => {
        if ((await field.inputValue()) === option) return option;
        if (!(await choice.isVisible())) {
          await field.click();
          if (search) await field.fill(search);
        }
        await choice.click({ timeout: scaled(5_000) }).catch(() => undefined);
        return field.inputValue();
      },
      { timeout: scaled(30_000) },
    )
    .toBe(option);
}
