import { endpoints, loginResponse } from '@portal/contract';
import { sessionValues } from '@portal/contract/session';
import axe from 'axe-core';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { beforeAll, expect, inject, onTestFinished } from 'vitest';
import { recordShownTexts } from './shown.ts';
import { scaled } from './test-time.ts';

declare global {
  interface Window {
    axe: typeof axe;
  }
}

/** This worker's portal (global-setup.ts): VITEST_POOL_ID is the worker's number, 1 to maxWorkers. */
export function portal() {
  const portals = inject('portals');
  return portals[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % portals.length]!;
}
export const baseUrl = () => portal().baseUrl;
export const artifactsDir = path.resolve(import.meta.dirname, '../artifacts');

/**
 * Debian's Chromium for the tests: its headless shell (`apt-get install
 * chromium-headless-shell`) where installed, else the full browser run headless. The shell is
 * the same engine without the browser's windowing layers: the browser suite's Chromium CPU
 * about halved (docs/decisions/tests-and-ci.md § The test loop).
 */
const chromiumPath =
  process.env.CHROMIUM_PATH ||
  (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');

/** Debian's Chromium (chromiumPath), headless, with nothing that reaches outside this machine. */
function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
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

let launched: Browser | undefined;

/**
 * The worker's Chromium: launched for its first test file and kept for the files it runs
 * after (`isolate: false` keeps this module between them, vitest.config.ts), instead of a
 * launch per file; each test still has a context of its own (newPage), closed with it.
 * Playwright ends it when the worker exits; one that has gone is launched again.
 */
async function workerBrowser(): Promise<Browser> {
  if (!launched?.isConnected()) launched = await launchBrowser();
  return launched;
}

/** The worker's Chromium for a test file (workerBrowser); call the result for the browser. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await workerBrowser();
  });
  return () => {
    if (!browser) throw new Error('the browser starts in beforeAll');
    return browser;
  };
}

/**
 * A page in a context of its own. `locale`: the browser's language (navigator.languages and
 * Accept-Language), e.g. 'ar' or the pseudo-locale 'en-XA'; Chromium's default is en-US.
 */
export async function newPage(
  browser: Browser,
  width = 1280,
  portalUrl = baseUrl(),
  { locale }: { locale?: string } = {},
): Promise<Page> {
  // Reduced motion: transitions end at once, so axe never measures a toast mid-fade.
  const context = await browser.newContext({
    baseURL: portalUrl,
    viewport: { width, height: 900 },
    reducedMotion: 'reduce',
    ...(locale ? { locale } : {}),
  });
  // Closed with its test: a page left open keeps its live-updates stream, and refetches and
  // renders on every change the later tests make.
  onTestFinished(() => context.close());
  // Toasts close by themselves: the page keeps a record of them for toastShown/expectToast.
  await recordShownTexts(context);
  const page = await context.newPage();
  // A bound, not a pause: on a loaded CI machine a screen has taken more than 15 s to draw.
  page.setDefaultTimeout(scaled(30_000));
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

/**
 * The sidebar's link to a screen. Its accessible name is the label, then the count badge
 * when something waits there ('Doctors 2 waiting for activation', 'Dashboard 3 unread'): the
 * badge arrives with its own query, so an exact name would match only until it has.
 */
export function menuLink(page: Page, label: string) {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return page
    .getByRole('navigation', { name: 'Main menu' })
    .getByRole('link', { name: new RegExp(`^${escaped}(\\s*\\d+ .+)?$`) });
}

/**
 * Opens `path` signed in, for tests whose subject is not the sign-in screen (login.e2e.test.ts
 * and the tests of registering, resetting a password and a shared link sign in through it).
 * The sign-in request goes out from the page's own context, so the session cookie it sets
 * (live updates, downloads, the printable prescription) is the browser's, and its answer is
 * stored as the sign-in screen stores it (`sessionValues`, the seven keys of docs/spec.md
 * section 3): the sign-in page and the dashboard are not loaded on the way.
 */
export async function openSignedIn(page: Page, username: string, password: string, path = '/dashboard'): Promise<void> {
  const response = await page.request.post(endpoints.login.path, { data: { username, password } });
  if (!response.ok()) throw new Error(`sign-in of ${username} failed: ${response.status()} ${await response.text()}`);
  const stored = sessionValues(loginResponse.parse(await response.json()));
  // localStorage belongs to the origin: any small answer of the portal's opens it.
  await page.goto('/robots.txt');
  await page.evaluate((values) => {
    for (const [key, value] of Object.entries(values)) localStorage.setItem(key, value);
  }, stored);
  await page.goto(path);
}

/** Waits until the global 'Loading...' overlay is gone. */
/**
 * Clicks until the click's outcome is there (`isDone`), within one generous deadline: a list
 * that a search or a refetch is replacing can take a click on a row on its way out, and the
 * click then does nothing (under load the Users and Dashboard tests waited out their bound so).
 */
export async function clickUntil(click: () => Promise<void>, isDone: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + scaled(60_000);
  while (!(await isDone())) {
    if (Date.now() > deadline) throw new Error(`${what}: no click had its outcome in ${scaled(60_000)} ms`);
    await click().catch(() => {});
    await expect
      .poll(isDone, { timeout: scaled(5_000) })
      .toBe(true)
      .catch(() => {});
  }
}

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
      { timeout: scaled(15_000) },
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
export async function layoutSettled(page: Page): Promise<void> {
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
 * Whether `screenshots` writes its files: they are for people to look at, and no assertion
 * depends on them, so only with E2E_SCREENSHOTS=1 (`E2E_SCREENSHOTS=1 npm run test:e2e`);
 * two full-page captures a call are too dear for every run (docs/benchmarks.md § Test loop).
 */
const takeScreenshots = process.env.E2E_SCREENSHOTS === '1';

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
 * axe-core's own axe.run in the page, with only violations gathered in full. axe is put into
 * each frame once for the life of the page (the portal's one frame, the terms on the case
 * form, is same-origin and its own document), not before every run as @axe-core/playwright
 * does: evaluating its 550 KB source three times a run was 0.5 s of each 0.7 s check.
 */
async function runAxe(page: Page): Promise<axe.AxeResults> {
  for (const frame of page.frames()) {
    try {
      if (await frame.evaluate(() => 'axe' in window)) continue;
      await frame.evaluate(axe.source);
      await frame.evaluate(() => window.axe.configure({ allowedOrigins: ['<same_origin>'] }));
    } catch (error) {
      // A frame that navigates away meanwhile is not checked; the page itself must be.
      if (frame === page.mainFrame()) throw error;
    }
  }
  return page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
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
      const results = await runAxe(page);
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

/**
 * How long a test waits for the server's viewing copy of a mesh: made by a thread below
 * normal priority (requests come first), behind the copies of what earlier files of this
 * worker uploaded, on a machine the rest of the run keeps busy.
 */
export const viewingCopyWait = { timeout: scaled(60_000) };
