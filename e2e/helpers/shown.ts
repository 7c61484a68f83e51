import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { scaled } from './test-time.ts';

/**
 * Toasts close themselves after 3-5 s and the loading overlay's '{n}% uploaded' lasts only
 * as long as the upload: on a loaded machine a test can spend that long between two polls
 * of isVisible() and miss them. So every page records, as they appear, the texts of the
 * toasts (Mantine notifications) and of the overlay; the helpers below read that record,
 * so a test checks that the toast was shown without racing its auto-close.
 */
export async function recordShownTexts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    interface Entry {
      kind: 'toast' | 'overlay';
      parts: string[];
      matched: boolean[];
    }
    const log: Entry[] = [];
    (window as unknown as { __shownTexts: Entry[] }).__shownTexts = log;
    const normalize = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();
    const recorded = new WeakMap<Element, string>();
    const record = () => {
      for (const toast of document.querySelectorAll('.mantine-Notification-root')) {
        const parts = [...toast.querySelectorAll('.mantine-Notification-title, .mantine-Notification-description')]
          .map((part) => normalize(part.textContent))
          .filter(Boolean);
        const key = parts.join('\n');
        if (parts.length === 0 || recorded.get(toast) === key) continue;
        recorded.set(toast, key);
        log.push({ kind: 'toast', parts, matched: parts.map(() => false) });
      }
      for (const status of document.querySelectorAll('.mantine-LoadingOverlay-root [role="status"]')) {
        const text = normalize(status.textContent);
        if (!text || recorded.get(status) === text) continue;
        recorded.set(status, text);
        log.push({ kind: 'overlay', parts: [text], matched: [false] });
      }
    };
    const start = () =>
      new MutationObserver(record).observe(document.documentElement, {
        childList: true,
        subtree: true,
        characterData: true,
      });
    if (document.documentElement) start();
    else document.addEventListener('DOMContentLoaded', start, { once: true });
  });
}

type Text = string | RegExp;
const pattern = (text: Text) =>
  typeof text === 'string' ? { text, source: null, flags: '' } : { text: null, source: text.source, flags: text.flags };

/**
 * Whether a toast (kind 'toast') or the overlay (kind 'overlay') has shown this text since
 * the page loaded, even if it has closed since. A toast's title and its message each answer
 * true once, so a second check of the same text waits for a second toast. A string matches
 * the title or the message as a substring (whole, with `exact`), a RegExp is tested on them.
 */
async function takeShown(page: Page, kind: 'toast' | 'overlay', text: Text, exact = false): Promise<boolean> {
  return page.evaluate(
    ({ kind, wanted, exact }) => {
      const log = (window as unknown as { __shownTexts?: { kind: string; parts: string[]; matched: boolean[] }[] })
        .__shownTexts;
      const regex = wanted.source === null ? null : new RegExp(wanted.source, wanted.flags);
      const matches = (part: string) =>
        regex ? regex.test(part) : exact ? part === wanted.text : part.includes(wanted.text!);
      for (const entry of log ?? []) {
        if (entry.kind !== kind) continue;
        const index = entry.parts.findIndex((part, at) => !entry.matched[at] && matches(part));
        if (index === -1) continue;
        // Overlay texts (the upload percentage) repeat; only toasts are taken one at a time.
        if (kind === 'toast') entry.matched[index] = true;
        return true;
      }
      return false;
    },
    { kind, wanted: pattern(text), exact },
  );
}

/** A toast with this text was shown (and may have closed since); for expect.poll. */
export const toastShown = (page: Page, text: Text, options: { exact?: boolean } = {}) =>
  takeShown(page, 'toast', text, options.exact);

/** The loading overlay showed this text ('Loading...', '42% uploaded'), perhaps only briefly. */
export const overlayShown = (page: Page, text: Text) => takeShown(page, 'overlay', text);

/** Waits until a toast with this text has been shown; it does not have to be on screen still. */
export async function expectToast(page: Page, text: Text, options: { exact?: boolean } = {}): Promise<void> {
  await expect
    .poll(() => toastShown(page, text, options), { message: `toast ${String(text)}`, timeout: scaled(15_000) })
    .toBe(true);
}

/**
 * The text is on the screen now, or was shown in a toast that has closed since (exact
 * match, as getByText(text, { exact: true })).
 */
export async function isShown(page: Page, text: string): Promise<boolean> {
  return (
    (await toastShown(page, text, { exact: true })) || (await page.getByText(text, { exact: true }).first().isVisible())
  );
}
