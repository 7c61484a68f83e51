import { loginResponse } from '@portal/contract';
import { sessionValues } from '@portal/contract/session';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';

/** What the browser benchmarks (viewer.ts, progress-overlay.ts) measure a page by. */

/** A clinic's link: 50 Mbit/s each way, 20 ms. */
const clinicWifi = { offline: false, latency: 20, downloadThroughput: 50e6 / 8, uploadThroughput: 50e6 / 8 };

/** Long tasks (over 50 ms on the page's main thread) are kept in the page as they happen. */
const recordLongTasks = () => {
  const tasks: { start: number; duration: number }[] = [];
  (globalThis as unknown as { longTasks: typeof tasks }).longTasks = tasks;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push({ start: entry.startTime, duration: entry.duration });
  });
  // Node's types know no 'longtask': this runs in the page.
  observer.observe({ type: 'longtask', buffered: true } as unknown as { type: 'mark' });
};

/** The longest task that ran between `from` and `to` (the page's clock, ms); 0 for none. */
export const longestTask = (page: Page, from: number, to = Infinity) =>
  page.evaluate(
    ([since, until]) =>
      Math.max(
        0,
        ...(globalThis as unknown as { longTasks: { start: number; duration: number }[] }).longTasks
          .filter((task) => task.start + task.duration >= since! && task.start < until!)
          .map((task) => task.duration),
      ),
    [from, to],
  );

/** A fresh context signed in as `username` (its cookie and the app's stored session), its pages' long tasks recorded. */
export async function signInContext(context: BrowserContext, baseUrl: string, username: string): Promise<void> {
  const answer = await context.request.post(`${baseUrl}/api/auth/login`, {
    data: { username, password: 'bench-passphrase' },
  });
  const stored = sessionValues(loginResponse.parse(await answer.json()));
  await context.addInitScript((values) => {
    for (const [key, value] of Object.entries(values)) localStorage.setItem(key, value);
  }, stored);
  await context.addInitScript(recordLongTasks);
}

/** The page on the clinic's link, nothing cached. */
export async function onClinicLink(cdp: CDPSession): Promise<void> {
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', clinicWifi);
}
