import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** Polls long enough for a save: the server hashes passwords and the overlay lingers 500 ms. */
export const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000 });

export const textbox = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });
export const combobox = (page: Page, name: string) => page.getByRole('combobox', { name, exact: true });

/**
 * Opens a Select by its label, optionally narrows a long list by typing, and picks the option,
 * until the field shows it: a list that redraws as its data arrives can close under a click.
 */
export async function pickOption(page: Page, label: string, option: string, search?: string): Promise<void> {
  const field = combobox(page, label);
  const choice = page.getByRole('option', { name: option, exact: true }).first();
  await expect
    .poll(
      async () => {
        if ((await field.inputValue()) === option) return option;
        if (!(await choice.isVisible())) {
          await field.click();
          if (search) await field.fill(search);
        }
        await choice.click({ timeout: 5_000 }).catch(() => undefined);
        return field.inputValue();
      },
      { timeout: 30_000 },
    )
    .toBe(option);
}
