import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { pseudolocalize } from '../../apps/web/src/lib/pseudo-locale.ts';
import { layoutSettled } from './browser.ts';
import { eventually } from './doctor-form.ts';

/** The browser language that shows the pseudo-locale (apps/web/src/lib/i18n.ts). */
export const pseudoLocale = 'en-XA';

/** An English message as the pseudo-locale shows it, to find a button or a heading by its words. */
export function pseudo(english: string, values: Record<string, string | number> = {}): string {
  const [message] = Object.values(pseudolocalize({ message: compileMessage(english) }));
  return (message as (string | [string])[])
    .map((token) => (typeof token === 'string' ? token : String(values[token[0]] ?? '')))
    .join('');
}

export interface TextProblems {
  /** Visible texts (or people-facing attributes) with a word in plain English. */
  english: string[];
  /** Texts cut by their box, and the page wider than the window. */
  cut: string[];
}

/**
 * What the pseudo-locale shows on the current screen (docs/quality/languages.md § The
 * pseudo-locale): every translated text is accented and bracketed, so a run of three plain
 * ASCII letters is English left untranslated, unless it is data the test made (`data`: user
 * names, case numbers, file names; matched as whole texts or words), words with a digit (made
 * names and ids), a table cell's plain text (the records' data; its badges and buttons are
 * checked), what Intl formats, and what carries `translate="no"` (names and codes, as for a
 * translation tool). A text is cut when its
 * element clips it (overflow hidden or an ellipsis with more to show), or when the page
 * scrolls sideways.
 */
export async function pseudoLocaleProblems(page: Page, data: readonly string[] = []): Promise<TextProblems> {
  await layoutSettled(page);
  // uniqueName's names carry Date.now() in base 36, whose first three characters hold for 17 hours:
  // today's and the last hours' prefixes find every name this run made.
  const prefixes = [...new Set([0, 3].map((hours) => (Date.now() - hours * 3_600_000).toString(36).slice(0, 3)))];
  return page.evaluate(
    ([givenWords, madeNamePrefixes]) => {
      // What the page itself marks as names (`translate="no"`) is data wherever it is repeated,
      // as in a button's label ("Activate Ada Lovelace (ada)").
      const pageNames = [...document.querySelectorAll('[translate="no"]')]
        .map((element) => element.textContent?.trim() ?? '')
        .filter((name) => name.length > 0);
      const dataWords = [...givenWords, ...pageNames];
      const madeNames = new RegExp(`\\b\\w*(${madeNamePrefixes.join('|')})\\w*\\b`, 'g');
      const isShown = (element: Element) => {
        const box = element.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) return false;
        const style = getComputedStyle(element);
        return style.visibility !== 'hidden' && style.display !== 'none' && !element.closest('[aria-hidden="true"]');
      };
      // Inside a translated message only placeholders' values are plain, and those are data; so are
      // what Intl formats (the pseudo-locale formats as English), addresses, codes and devices.
      const formatted = [
        /\b(January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}( \d{1,2}:\d{2} (AM|PM))?/g,
        /\b\d{1,2}:\d{2}( (AM|PM))?/g,
        /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b/g,
        /\S+@\S+\.\w+/g, // e-mail addresses
        /https?:\/\/\S+/g,
        /\{\w+\}/g, // a placeholder shown as such (a courier's link template)
        /\b[a-z]+(?:[._][a-z]+)+\b/g, // codes: audit actions (auth.login), field names
        /Mozilla\/\S+.*|\b(Chrome|Firefox|Safari|Edge) \d+ on \w+/g, // browsers and devices
        /\b[A-Z]{2}-\d{4}-[A-Z0-9]{6}\b/g, // case tracking numbers
        /\b(?=[A-Za-z]*\d)[A-Za-z0-9]+\b/g, // made names and ids: words with a digit (drmxaw12, Role 3)
        madeNames, // the run's own made names (helpers/api.ts's uniqueName), digits or not
      ];
      const withoutData = (text: string) =>
        formatted.reduce(
          (rest, pattern) => rest.replace(pattern, ' '),
          // The longest first: 'Doctors who submit cases' before 'Doctor'.
          [...dataWords].sort((a, b) => b.length - a.length).reduce((rest, word) => rest.split(word).join(' '), text),
        );
      const english: string[] = [];
      const cut: string[] = [];
      const plainWord = /(?<![\p{L}])[A-Za-z]{3,}(?![\p{L}])/u;
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent?.trim() ?? '';
        const element = node.parentElement;
        if (!text || !element || !isShown(element)) continue;
        if (element.closest('script, style, noscript, code, [translate="no"]')) continue;
        // A table's plain cell text is the records' data (names, dates), its badges and buttons words.
        const isCellData = element.closest('td') && !element.closest('button, a, .mantine-Badge-root');
        if (!isCellData && plainWord.test(withoutData(text))) english.push(text);
        const style = getComputedStyle(element);
        const clips = ['hidden', 'clip'].includes(style.overflowX) || style.textOverflow === 'ellipsis';
        // Text kept for screen readers only is clipped on purpose (1 px, VisuallyHidden).
        const isVisuallyHidden = element.getBoundingClientRect().width <= 1;
        if (clips && !isVisuallyHidden && element.scrollWidth > element.clientWidth + 1) cut.push(text);
      }
      for (const element of document.querySelectorAll('[placeholder], [aria-label], [title]')) {
        // A row's buttons are named for their record ('Edit <name>'): their words are checked as shown.
        if (!isShown(element) || element.closest('td')) continue;
        for (const name of ['placeholder', 'aria-label', 'title']) {
          const value = element.getAttribute(name)?.trim();
          if (value && plainWord.test(withoutData(value))) english.push(`${name}="${value}"`);
        }
      }
      const page = document.scrollingElement ?? document.documentElement;
      if (page.scrollWidth > window.innerWidth + 1)
        cut.push(`the page: ${page.scrollWidth} px wide in ${window.innerWidth}`);
      return { english: [...new Set(english)], cut: [...new Set(cut)] };
    },
    [data, prefixes] as const,
  );
}

/** No English left and nothing cut, at 375 and 1280 px; the viewport is restored afterwards. */
export async function expectFullyTranslated(page: Page, data: readonly string[] = []): Promise<void> {
  const original = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    const problems = await pseudoLocaleProblems(page, data);
    expect(problems, `at ${width} px`).toEqual({ english: [], cut: [] });
  }
  await page.setViewportSize(original);
}

/** The page mirrored for a right-to-left language: `<html dir="rtl" lang>`, and the text starts at the right. */
export async function expectRightToLeft(page: Page, lang: string): Promise<void> {
  await eventually(() => page.evaluate(() => [document.documentElement.dir, document.documentElement.lang])).toEqual([
    'rtl',
    lang,
  ]);
  expect(await page.evaluate(() => getComputedStyle(document.body).direction)).toBe('rtl');
}
