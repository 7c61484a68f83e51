import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiLogin, createActiveDoctor, createStaff, portalApi } from '../helpers/api.ts';
import { useBrowser, newPage, openSignedIn } from '../helpers/browser.ts';
import { submitCase } from '../helpers/cases.ts';
import { giveApprovedPlan } from '../helpers/plans.ts';

/**
 * A shared lab computer: after sign-out, nothing of a patient's case is left in the
 * browser's HTTP cache for the next person (docs/quality/headers.md § Headers).
 */
const browser = useBrowser();
let doctor: Awaited<ReturnType<typeof createActiveDoctor>>;
let caseId: number;
let fileUrls: string[];

beforeAll(async () => {
  doctor = await createActiveDoctor();
  const staff = await createStaff([1]);
  const doctorToken = await apiLogin(doctor.username, doctor.password);
  caseId = (await submitCase(doctorToken)).CaseId;
  await giveApprovedPlan(portalApi(), await apiLogin(staff.username, staff.password), doctorToken, caseId);
  const plans = await apiCall<{ stages: { url: string }[] }[]>('GET', `/case/${caseId}/plans`, {
    token: doctorToken,
  });
  const attachments = await apiCall<{ FilePath: string }[]>('GET', `/case/get_cases_attachments_by_case_id/${caseId}`, {
    token: doctorToken,
  });
  // A plan's stage model (once sent cacheable for a year) and the case's photos and scans.
  fileUrls = [plans[0]!.stages[0]!.url, ...attachments.map((file) => file.FilePath)];
});

/** What the page's HTTP cache answers for `url` without going to the network. */
const cachedStatus = (page: Page, url: string) =>
  page.evaluate(
    (target) =>
      fetch(target, { cache: 'only-if-cached', mode: 'same-origin' }).then(
        (response) => (response.status === 504 ? 'not cached' : response.status),
        () => 'not cached',
      ),
    url,
  );

describe('a shared lab computer', () => {
  it("keeps none of a case's files in the browser's cache once the doctor signs out", async () => {
    expect(fileUrls.length).toBeGreaterThan(1);
    const page = await newPage(browser());
    await openSignedIn(page, doctor.username, doctor.password, `/cases/${caseId}`);
    // Fetched as the viewers fetch them: with the session cookie.
    for (const url of fileUrls) {
      expect(await page.evaluate((target) => fetch(target).then((response) => response.status), url), url).toBe(200);
    }
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    for (const url of fileUrls) expect(await cachedStatus(page, url), url).toBe('not cached');
    await page.close();
  });
});
