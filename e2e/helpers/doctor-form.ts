import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { scaled } from './test-time.ts';

/** Polls long enough for a save: the server hashes passwords and the overlay lingers 500 ms. */
export const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: scaled(10_000) });

export const textbox = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });
export const combobox = (page: Page, name: string) => page.getByRole('combobox', { name, exact: true });
