/**
 * What a new user waits for on a clinic's connection: the sign-in page and a signed-in cold
 * dashboard opened in headless Chromium over a simulated Fast 3G link (1.6 Mbit/s down,
 * 750 kbit/s up, 150 ms latency; DevTools' network emulation), each with an empty cache.
 * Prints first contentful paint, the time until the page can be used (the sign-in button,
 * or the dashboard's tiles and case list drawn from the API's answers), and the JavaScript
 * the browser fetched: the bytes on the wire (as Chromium negotiated them; it asks for brotli only over HTTPS, so gzip here) and their gzip size (the budget's
 * unit, from the build's .gz twins). Then Lighthouse's default mobile run on the sign-in
 * page: its four category scores. Fails (exit code 1) when a budget or goal is missed.
 *   BENCH_BROWSER_RUNS=3 (each page's median, and Lighthouse's, is printed)   BENCH_LIGHTHOUSE=0 to skip it
 *   WEB_DIST=folder: another build (the portal serves it; a baseline measured the same way)
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { fixed, median, printTable } from './lib/measure.ts';
import { startPortalWithDoctor } from './lib/seed-api.ts';

const runs = Number(process.env.BENCH_BROWSER_RUNS ?? 3);
const dist = process.env.WEB_DIST
  ? path.resolve(process.env.WEB_DIST)
  : path.resolve(import.meta.dirname, '../apps/web/dist');
const chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The limits and goals (docs/decisions/speed.md § On the wire). */
const budgets = {
  signInJsKb: 150,
  dashboardJsKb: 220,
  signInPaintMs: 2500,
  dashboardPaintMs: 3500,
  lighthouseScore: 95,
};

/** DevTools' "Fast 3G": bytes per second and the added round-trip latency. */
const fast3g = { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 };

interface PageRun {
  paintMs: number;
  readyMs: number;
  scripts: string[];
  wireKb: number;
}

/** The page's document, as far as the readiness check below uses it (it runs in the browser). */
declare const document: { querySelector(selector: string): unknown; body: { innerText: string } };

/** When a page is usable: every selector matches and the text is shown. */
interface Ready {
  selectors: string[];
  text?: string;
  /** Nothing matches this any more (a loading placeholder). */
  gone?: string;
}

/** Opens `url` in a fresh context (empty cache) on Fast 3G; `ready` says when it is usable. */
async function openThrottled(context: BrowserContext, url: string, ready: Ready): Promise<PageRun> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', fast3g);
  const scriptRequests = new Map<string, string>();
  const scripts: string[] = [];
  /** Bytes on the wire per script URL (a chunk both preloaded and imported counts once). */
  const wireBytes = new Map<string, number>();
  cdp.on('Network.responseReceived', (event) => {
    if (event.type === 'Script') scriptRequests.set(event.requestId, event.response.url);
  });
  cdp.on('Network.loadingFinished', (event) => {
    const scriptUrl = scriptRequests.get(event.requestId);
    if (scriptUrl === undefined) return;
    scripts.push(new URL(scriptUrl).pathname);
    if (!wireBytes.has(scriptUrl)) wireBytes.set(scriptUrl, event.encodedDataLength);
  });
  await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
  const readyHandle = await page.waitForFunction(
    ({ selectors, text, gone }) =>
      selectors.every((selector) => document.querySelector(selector)) &&
      (!text || document.body.innerText.includes(text)) &&
      (!gone || !document.querySelector(gone))
        ? performance.now()
        : false,
    ready,
    { polling: 20, timeout: 60_000 },
  );
  const readyMs = (await readyHandle.jsonValue()) as number;
  await page.waitForLoadState('networkidle', { timeout: 60_000 });
  const paintMs = await page.evaluate(
    () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
  );
  await page.close();
  return { paintMs, readyMs, scripts, wireKb: [...wireBytes.values()].reduce((sum, bytes) => sum + bytes, 0) / 1024 };
}

/**
 * The gzip size of the scripts a page fetched, from the build's .gz files (what a gzip-only
 * browser gets); a file gzip would not shrink has no twin and is sent as it is.
 */
async function gzipKbOf(scripts: string[]) {
  let bytes = 0;
  for (const script of new Set(scripts)) {
    const file = path.join(dist, script);
    bytes += (await readFile(`${file}.gz`).catch(() => readFile(file))).length;
  }
  return bytes / 1024;
}

async function measurePage(browser: Browser, url: string, ready: Ready, storage?: Record<string, string>) {
  const results: PageRun[] = [];
  for (let run = 0; run < runs; run++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    if (storage) {
      await context.addInitScript((values) => {
        for (const [key, value] of Object.entries(values)) localStorage.setItem(key, value);
      }, storage);
    }
    results.push(await openThrottled(context, url, ready));
    await context.close();
  }
  return {
    paintMs: median(results.map((result) => result.paintMs)),
    readyMs: median(results.map((result) => result.readyMs)),
    wireKb: median(results.map((result) => result.wireKb)),
    gzipKb: await gzipKbOf(results[0]!.scripts),
    scriptCount: new Set(results[0]!.scripts).size,
  };
}

/** Lighthouse's default run (mobile, simulated throttling) on `url`: the four category scores, 0-100. */
async function lighthouseScores(url: string) {
  const cli = path.resolve(import.meta.dirname, '../node_modules/lighthouse/cli/index.js');
  const chromeFlags = [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ].join(' ');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [cli, url, '--output=json', '--quiet', `--chrome-flags=${chromeFlags}`],
    { env: { ...process.env, CHROME_PATH: chromePath }, maxBuffer: 64 * 1024 * 1024 },
  );
  const report = JSON.parse(stdout) as {
    categories: Record<string, { title: string; score: number | null }>;
    audits: Record<string, { numericValue?: number }>;
  };
  const score = (id: string) => Math.round((report.categories[id]?.score ?? 0) * 100);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    fcpMs: report.audits['first-contentful-paint']?.numericValue ?? Number.NaN,
    tbtMs: report.audits['total-blocking-time']?.numericValue ?? Number.NaN,
  };
}

/** Lighthouse `runs` times (its score moves with the machine's load): each figure's median, and the performance range. */
async function lighthouseMedians(url: string) {
  const results: Awaited<ReturnType<typeof lighthouseScores>>[] = [];
  for (let run = 0; run < runs; run++) results.push(await lighthouseScores(url));
  const of = (key: keyof (typeof results)[number]) => median(results.map((result) => result[key]));
  const performances = results.map((result) => result.performance);
  return {
    performance: of('performance'),
    performanceRange: `${Math.min(...performances)}-${Math.max(...performances)}`,
    accessibility: of('accessibility'),
    bestPractices: of('bestPractices'),
    seo: of('seo'),
    fcpMs: of('fcpMs'),
    tbtMs: of('tbtMs'),
  };
}

export async function runBrowserBenchmark() {
  const { portal, doctor, stop } = await startPortalWithDoctor('browser');
  const browser = await chromium.launch({
    executablePath: chromePath,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
  });
  const failures: string[] = [];
  try {
    const signIn = await measurePage(browser, `${portal.baseUrl}/`, { selectors: ['button[type="submit"]'] });
    // The seven values the app keeps after sign-in (lib/session.ts), as a returning doctor has them.
    const storage = Object.fromEntries(
      Object.entries(doctor.session).map(([key, value]) => [key, value === null ? '' : String(value)]),
    );
    // Usable: the tiles have their counts (no skeleton left) and the case list has answered.
    const dashboard = await measurePage(
      browser,
      `${portal.baseUrl}/dashboard`,
      // The bench doctor has no cases yet: the list has answered when it says so.
      { selectors: ['table'], text: 'There are no records to display', gone: '.mantine-Skeleton-root' },
      storage,
    );
    const check = (ok: boolean, what: string) => {
      if (!ok) failures.push(what);
      return ok ? 'yes' : 'NO';
    };
    printTable('Browser: Fast 3G (1.6 Mbit/s, 750 kbit/s up, 150 ms), empty cache, Chromium; medians', [
      {
        page: 'sign-in /',
        'first paint ms': fixed(signIn.paintMs, 0),
        'usable ms': fixed(signIn.readyMs, 0),
        'JS files': signIn.scriptCount,
        'JS KB wire': fixed(signIn.wireKb),
        'JS KB gzip': fixed(signIn.gzipKb),
        'paint ≤ 2.5 s': check(signIn.paintMs <= budgets.signInPaintMs, 'sign-in first paint'),
        'JS ≤ 150 KB': check(signIn.gzipKb <= budgets.signInJsKb, 'sign-in JavaScript'),
      },
      {
        page: 'cold /dashboard (doctor)',
        'first paint ms': fixed(dashboard.paintMs, 0),
        'usable ms': fixed(dashboard.readyMs, 0),
        'JS files': dashboard.scriptCount,
        'JS KB wire': fixed(dashboard.wireKb),
        'JS KB gzip': fixed(dashboard.gzipKb),
        'paint ≤ 3.5 s': check(dashboard.paintMs <= budgets.dashboardPaintMs, 'dashboard first paint'),
        'JS ≤ 220 KB': check(dashboard.gzipKb <= budgets.dashboardJsKb, 'dashboard JavaScript'),
      },
    ]);
    if (process.env.BENCH_LIGHTHOUSE !== '0') {
      const scores = await lighthouseMedians(`${portal.baseUrl}/`);
      const goal = budgets.lighthouseScore;
      printTable(
        `Lighthouse 13, default mobile run (simulated slow 4G, 4x CPU slowdown), sign-in page /; medians of ${runs}`,
        [
          {
            performance: scores.performance,
            'perf. range': scores.performanceRange,
            accessibility: scores.accessibility,
            'best practices': scores.bestPractices,
            SEO: scores.seo,
            'FCP ms': fixed(scores.fcpMs, 0),
            'TBT ms': fixed(scores.tbtMs, 0),
            [`all ≥ ${goal}`]: check(
              [scores.performance, scores.accessibility, scores.bestPractices, scores.seo].every((s) => s >= goal),
              'Lighthouse scores',
            ),
          },
        ],
      );
    }
    if (failures.length > 0) console.log(`  OVER BUDGET / GOAL MISSED: ${failures.join(', ')}`);
    return { signIn, dashboard, failures };
  } finally {
    await browser.close();
    await stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { failures } = await runBrowserBenchmark();
  if (failures.length > 0) process.exitCode = 1;
}
