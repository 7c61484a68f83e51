import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, newPage, screenshots, useBrowser } from '../helpers/browser.ts';
import { eventually } from '../helpers/doctor-form.ts';
import { expectFullyTranslated, expectRightToLeft, pseudoLocale } from '../helpers/languages.ts';

const browser = useBrowser();

// The portal in each user's language (issue 43): the pseudo-locale finds English left and text
// cut by its box; Arabic is mirrored; the language picker and the account's language decide.
describe('Languages', () => {
  it('shows the sign-in page in the pseudo-locale with no English left and nothing cut', async () => {
    const page = await newPage(browser(), 1280, undefined, { locale: pseudoLocale });
    await page.goto('/');
    await eventually(() => page.evaluate(() => document.documentElement.lang)).toBe(pseudoLocale);
    await eventually(() => page.getByRole('button', { name: /^\[Šîĝñ Îñ/ }).isVisible()).toBe(true);
    await expectFullyTranslated(page, ['Aligner Portal']);
    await screenshots(page, 'languages-pseudo-sign-in');
  });

  it('mirrors the sign-in page in Arabic, from the browser language, accessibly', async () => {
    const page = await newPage(browser(), 1280, undefined, { locale: 'ar' });
    await page.goto('/');
    await expectRightToLeft(page, 'ar');
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'languages-ar-sign-in');
  });

  it('switches the sign-in page to the language picked, and keeps it on reload', async () => {
    const page = await newPage(browser());
    await page.goto('/');
    await page.getByRole('combobox', { name: 'Language' }).selectOption('de');
    await eventually(() => page.evaluate(() => document.documentElement.lang)).toBe('de');
    await page.reload();
    await eventually(() => page.evaluate(() => document.documentElement.lang)).toBe('de');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('ltr');
  });

  it("draws the page in English when the language's catalog cannot be fetched", async () => {
    const page = await newPage(browser(), 1280, undefined, { locale: 'de' });
    await page.route(/\/assets\/de-[\w-]+\.js$/, (route) => route.abort());
    await page.goto('/');
    await eventually(() => page.getByRole('button', { name: 'Sign In' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
  });
});
