import { maxPageSize, type CaseAttachment, type CaseDraft, type CaseRow } from '@portal/contract';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiCall, apiLogin, createActiveDoctor, uniqueName } from '../helpers/api.ts';
import {
  baseUrl,
  expectNoSeriousA11yViolations,
  useBrowser,
  newPage,
  screenshots,
  settle,
  openSignedIn,
  menuLink,
} from '../helpers/browser.ts';
import { chooseFiles, fillCaseDetails, goToStep, pickRadio, type ChosenFile } from '../helpers/case-form.ts';
import { pictureFile } from '../helpers/pictures.ts';
import { toastShown } from '../helpers/shown.ts';
import { scaled } from '../helpers/test-time.ts';

// The bound of its slowest test (the others need less), times the run's factor (e2e/helpers/test-time.ts).
vi.setConfig({ testTimeout: scaled(180_000) });

const browser = useBrowser();
let doctor: Awaited<ReturnType<typeof createActiveDoctor>>;
beforeAll(async () => {
  doctor = await createActiveDoctor();
});

/** A binary STL of `triangles` facets (50 bytes each), big enough to be seen going up. */
function binaryStl(name: string, triangles: number): ChosenFile {
  const buffer = Buffer.alloc(84 + 50 * triangles, 7);
  buffer.write('e2e scan', 0, 'latin1');
  buffer.writeUInt32LE(triangles, 80);
  return { name, mimeType: 'model/stl', buffer };
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** The doctor signed in on a new case form, with step 1 filled in for a new patient, on the records step. */
async function openRecordsStep(namePrefix: string) {
  const page = await newPage(browser());
  await openSignedIn(page, doctor.username, doctor.password);
  await menuLink(page, 'Add Cases').click();
  await page.waitForURL('**/cases');
  await settle(page);
  const firstname = uniqueName(namePrefix);
  await fillCaseDetails(page, { firstname, lastname: 'Patient', dob: '1999-04-02' });
  await goToStep(page, "Patients's Records");
  return { page, firstname };
}

describe('Resumable uploads in the case form', () => {
  it('uploads each file as soon as it is chosen, with its progress and a cancel, then submits the upload', async () => {
    const { page, firstname } = await openRecordsStep('Tus');
    await pickRadio(page, 'Impression Type', 'Digital Impression');

    // Chosen and cancelled: the upload stops and the field is empty again.
    await chooseFiles(page, 'Mandibular Scan', [binaryStl('lower.stl', 20_000)]);
    const cancel = page.getByRole('button', { name: 'Cancel upload of lower.stl' });
    await cancel.waitFor({ timeout: scaled(15_000) });
    await cancel.click();
    await cancel.waitFor({ state: 'detached', timeout: scaled(15_000) });

    const upper = binaryStl('upper.stl', 200_000);
    await chooseFiles(page, 'Maxillary Scan', [upper]);
    await page.getByRole('progressbar', { name: 'upper.stl uploaded' }).waitFor({ timeout: scaled(30_000) });

    // Three photos at once fill the first three empty slots in order; one is then moved.
    const photos = [
      await pictureFile('one.png', '#c33'),
      await pictureFile('two.png', '#3c3'),
      await pictureFile('three.png', '#33c'),
    ];
    await chooseFiles(page, 'Add several photos', photos);
    for (const name of ['one.png', 'two.png', 'three.png']) {
      await page.getByRole('progressbar', { name: `${name} uploaded` }).waitFor({ timeout: scaled(30_000) });
    }
    await page.getByRole('button', { name: 'Move Front Smiling photo to another slot' }).click();
    await page.getByRole('menuitem', { name: 'Frontal', exact: true }).click();
    await page.getByRole('button', { name: 'Move Frontal photo to another slot' }).waitFor({ timeout: scaled(15_000) });
    await screenshots(page, 'resumable-upload');
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('checkbox', { name: /I accept the Terms and Conditions/ }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => toastShown(page, /Case submitted successfully/), { timeout: scaled(30_000) }).toBe(true);

    const token = await apiLogin(doctor.username, doctor.password);
    const rows = await apiCall<CaseRow[]>(
      'GET',
      `/case/get_cases_by_status/all/${doctor.userId}?pageSize=${maxPageSize}`,
      { token },
    );
    const created = rows.find((row) => row.FirstName === firstname)!;
    expect(created).toBeDefined();
    const attachments = await apiCall<CaseAttachment[]>(
      'GET',
      `/case/get_cases_attachments_by_case_id/${created.CaseId}`,
      {
        token,
      },
    );
    expect(attachments.map((file) => [file.FileType, file.FileName]).sort()).toEqual(
      [
        ['MaxillaryScan', 'upper.stl'],
        ['Frontal', 'one.png'],
        ['FacialProfile', 'two.png'],
        ['Front', 'three.png'],
      ].sort(),
    );
    expect(attachments.find((file) => file.FileType === 'MaxillaryScan')!.Sha256).toBe(sha256(upper.buffer));
  });

  it("a reload keeps the draft's finished uploads, and an interrupted one resumes where it stopped when its file is chosen again", async () => {
    const { page, firstname } = await openRecordsStep('Resume');
    await page.waitForURL(/\/cases\?draft=\d+$/, { timeout: scaled(20_000) });
    const draftId = Number(new URL(page.url()).searchParams.get('draft'));
    await pickRadio(page, 'Impression Type', 'Digital Impression');

    const upper = binaryStl('resume-upper.stl', 20_000);
    await chooseFiles(page, 'Maxillary Scan', [upper]);
    await page.getByRole('progressbar', { name: 'resume-upper.stl uploaded' }).waitFor({ timeout: scaled(30_000) });

    // The lower scan, from a file on disk (the browser keeps its name, size and date, which
    // tus-js-client knows it by), goes up over a slow link and is cut by a reload.
    const folder = await mkdtemp(path.join(tmpdir(), 'portal-e2e-'));
    const lower = binaryStl('resume-lower.stl', 100_000);
    const lowerPath = path.join(folder, lower.name);
    await writeFile(lowerPath, lower.buffer);
    const network = await page.context().newCDPSession(page);
    await network.send('Network.enable');
    await network.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: 10_000_000,
      uploadThroughput: 100_000,
    });
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Mandibular Scan', exact: true }).click();
    await (await chooser).setFiles(lowerPath);
    await page
      .getByRole('progressbar', { name: /resume-lower\.stl uploading, ([2-9]\d)%/ })
      .waitFor({ timeout: scaled(60_000) });

    // The draft on the server names both uploads before the reload.
    const token = await apiLogin(doctor.username, doctor.password);
    const readDraft = () => apiCall<CaseDraft>('GET', `/case/drafts/${draftId}`, { token });
    await expect
      .poll(async () => Object.keys((await readDraft()).files).sort(), { timeout: scaled(20_000) })
      .toEqual(['mandibularScan', 'maxillaryScan']);
    await expect
      .poll(() => page.getByText('Saved', { exact: true }).isVisible(), { timeout: scaled(20_000) })
      .toBe(true);
    const lowerId = (await readDraft()).files.mandibularScan as string;

    await page.reload();
    await network.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await page.getByRole('progressbar', { name: 'resume-upper.stl uploaded' }).waitFor({ timeout: scaled(30_000) });
    const notice = page.getByRole('alert').filter({ hasText: 'Some files had not finished uploading' });
    await expect.poll(() => notice.textContent(), { timeout: scaled(20_000) }).toContain('resume-lower.stl');
    const stored = await fetch(`${baseUrl()}/api/uploads/tus/${lowerId}`, {
      method: 'HEAD',
      headers: { 'Tus-Resumable': '1.0.0', Authorization: `Bearer ${token}` },
    });
    const storedBefore = Number(stored.headers.get('upload-offset'));
    expect(storedBefore).toBeGreaterThan(0);
    expect(storedBefore).toBeLessThan(lower.buffer.length);
    await screenshots(page, 'resumable-upload-restored');

    const again = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Mandibular Scan', exact: true }).click();
    await (await again).setFiles(lowerPath);
    await page.getByRole('progressbar', { name: 'resume-lower.stl uploaded' }).waitFor({ timeout: scaled(60_000) });
    // The same upload went on: the draft still names it, and no second one was made.
    await expect.poll(async () => (await readDraft()).files.mandibularScan, { timeout: scaled(20_000) }).toBe(lowerId);
    expect((await readDraft()).uploads.every((upload) => upload.finished)).toBe(true);
    await rm(folder, { recursive: true, force: true });

    await page.getByRole('checkbox', { name: /I accept the Terms and Conditions/ }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => toastShown(page, /Case submitted successfully/), { timeout: scaled(30_000) }).toBe(true);
    const rows = await apiCall<CaseRow[]>(
      'GET',
      `/case/get_cases_by_status/all/${doctor.userId}?pageSize=${maxPageSize}`,
      { token },
    );
    const created = rows.find((row) => row.FirstName === firstname)!;
    const attachments = await apiCall<CaseAttachment[]>(
      'GET',
      `/case/get_cases_attachments_by_case_id/${created.CaseId}`,
      { token },
    );
    const byName = new Map(attachments.map((file) => [file.FileName, file.Sha256]));
    expect(byName.get('resume-upper.stl')).toBe(sha256(upper.buffer));
    expect(byName.get('resume-lower.stl')).toBe(sha256(lower.buffer));
  });
});
