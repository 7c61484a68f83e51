import { AxeBuilder } from '@axe-core/playwright';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { recordShownTexts } from './shown.ts';

export const baseUrl = () => inject('baseUrl');
export const artifactsDir = path.resolve(import.meta.dirname, '../artifacts');

/** Debian's Chromium, headless, with nothing that reaches outside this machine. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** One Chromium for the whole test file, closed after it; call the result for the browser. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());
  return () => {
    if (!browser) throw new Error('the browser starts in beforeAll');
    return browser;
  };
}

export async function newPage(browser: Browser, width = 1280): Promise<Page> {
  // Reduced motion: transitions end at once, so axe never measures a toast mid-fade.
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width, height: 900 },
    reducedMotion: 'reduce',
  });
  // Toasts close by themselves: the page keeps a record of them for toastShown/expectToast.
  await recordShownTexts(context);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

/** Signs in through the login screen, as a person does. */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Username' }).fill(username);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/dashboard');
}

/** Waits until the global 'Loading...' overlay is gone. */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  // A cold server can take a few seconds for its first queries; expect.poll's default is 1 s.
  await expect
    .poll(
      () =>
        page
          .getByRole('status')
          .filter({ hasText: /Loading\.\.\.|% uploaded/ })
          .count(),
      { timeout: 15_000 },
    )
    .toBe(0);
}

/**
 * Instead of a fixed pause after a resize: two frames (the new layout is computed and
 * painted), then the end of every finite CSS transition or animation it started (a menu
 * collapsing). Endless ones, such as a loader's spin, are not waited for, nor those driven
 * by scrolling (the table's pinned-column edge), which never finish: each wait on them took
 * the whole 2 s bound, minutes of the browser suite.
 */
async function layoutSettled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
    const finite = document
      .getAnimations()
      .filter(
        (animation) =>
          animation.timeline === document.timeline && animation.effect?.getComputedTiming().endTime !== Infinity,
      );
    // A paused animation never finishes: 2 s is a bound, not a pause.
    await Promise.race([
      Promise.all(finite.map((animation) => animation.finished.catch(() => undefined))),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]);
  });
}

/**
 * Whether `screenshots` writes its files: they are for people to look at, so always outside
 * CI and in CI only with E2E_SCREENSHOTS=1 (no assertion depends on them; 108 full-page
 * captures cost CI about a minute).
 */
const takeScreenshots = !process.env.CI || process.env.E2E_SCREENSHOTS === '1';

/** Screenshots of the current screen at 375 px and 1280 px wide, kept in e2e/artifacts (see takeScreenshots). */
export async function screenshots(page: Page, name: string): Promise<void> {
  if (!takeScreenshots) return;
  await mkdir(artifactsDir, { recursive: true });
  const original = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await layoutSettled(page);
    await page.screenshot({ path: path.join(artifactsDir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(original);
}

/**
 * axe on the current screen at a phone's width (375 px) and at the page's own width: no
 * serious or critical violation at either. The viewport is restored afterwards.
 */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  const original = page.viewportSize() ?? { width: 1280, height: 900 };
  const widths = original.width === 375 ? [375] : [375, original.width];
  const found: string[] = [];
  try {
    for (const width of widths) {
      if (page.viewportSize()?.width !== width) {
        await page.setViewportSize({ width, height: original.height });
        await layoutSettled(page);
      }
      // axe.run in the page itself, not runPartial and then a new blank page for finishRun
      // (legacy mode still checks same-origin frames, and the portal's one frame, the terms
      // on the case form, is its own page); only violations are gathered in full. 1 s a
      // width, not 2.
      const results = await new AxeBuilder({ page })
        .setLegacyMode(true)
        .options({ resultTypes: ['violations'] })
        .analyze();
      for (const violation of results.violations) {
        if (violation.impact !== 'serious' && violation.impact !== 'critical') continue;
        found.push(`${width} px ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
      }
    }
  } finally {
    await page.setViewportSize(original);
    await layoutSettled(page);
  }
  expect(found).toEqual([]);
}
