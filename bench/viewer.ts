/**
 * Real-sized scans and plans in the 3D viewers (issue 22), in headless Chromium on a clinic's
 * Wi-Fi (50 Mbit/s both ways, 20 ms latency; DevTools' network emulation): two dense arch
 * scans (447k and 440k triangles, 22 MB of binary STL each) and a 30-stage plan of 14 teeth
 * of about 10.6k triangles per arch (62 STLs, 460 MB), all made by the project's own
 * generator (apps/server/test/helpers/dental-meshes.ts) and uploaded through the API of a
 * real portal process. Each figure is measured twice in the same run: on the viewing copies
 * the server makes, and on the original STLs (the baseline: the copies' state requests are
 * answered 404 in that browser context, so the viewer loads the originals as it did before
 * the copies existed). Prints every row of the table beside its goal; exit code 1
 * when a goal is missed.
 *   BENCH_PLAN_STAGES=30  BENCH_SCAN_TRIANGLES=447000  BENCH_SKIP_ORIGINALS=1 (the copies only)
 *   BENCH_PROFILE=folder (CPU profiles and traces of the page loading the copies; bench/lib/trace-summary.ts reads the traces)
 * Each viewer's first open on a fresh page (issue 40): the case page opened and the viewer's
 * button clicked as a person does, the longest main-thread task of the visit, the plan
 * viewer's beside the scan viewer's as the baseline, with the load average at the time.
 *   BENCH_FIRST_OPEN_RUNS=3  BENCH_FIRST_OPEN_ONLY=1 (those rows alone: one plan version, no upload timing)
 */
import { execSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page, type Request } from 'playwright-core';
import { planArchStages, scanStl } from '../apps/server/test/helpers/dental-meshes.ts';
import { fixed, mb, median, printTable } from './lib/measure.ts';
import { longestTask, onClinicLink, signInContext } from './lib/page-measure.ts';
import { benchCaseFields, startPortalWithDoctor } from './lib/seed-api.ts';

const planStages = Number(process.env.BENCH_PLAN_STAGES ?? 30);
/**
 * Pairs of plan uploads timed, one with nothing else running and one while copies are being
 * made: three pairs' medians varied by more than the 10% asked on this machine's disk.
 */
const uploadRounds = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 5);
const scanTriangles = Number(process.env.BENCH_SCAN_TRIANGLES ?? 447_000);
const skipOriginals = process.env.BENCH_SKIP_ORIGINALS === '1';
/** Only each viewer's first open on a fresh page (one plan version uploaded, no upload timing). */
const firstOpenOnly = process.env.BENCH_FIRST_OPEN_ONLY === '1';
/** A folder: the page's CPU profiles of loading the scans and the plan from the copies are written there (bench/lib/profile-summary.ts reads them). */
const profileDir = process.env.BENCH_PROFILE;
const chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The viewer's own pace (stage-controls.tsx playStepMs). */
const playStepMs = 700;
/** A clinic's Wi-Fi: 50 Mbit/s each way, 20 ms added per round trip. */

const goals = {
  scanFirstViewS: 3,
  scanWireMb: 6,
  planFirstStageS: 3,
  planWireMb: 20,
  playPace: 1.2,
  longestTaskMs: 200,
  memoryGrowthMb: 800,
  uploadSlowdown: 1.1,
  /** Issue 23: the movement table of the 30-stage plan, off the request path. */
  movementSeconds: 10,
};

/** Proportional memory (PSS) of every Chromium process of this machine, in bytes: the browser, its renderers and GPU process. */
function chromiumMemory(): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // Debian's /usr/bin/chromium is a script that runs /usr/lib/chromium/chromium.
      const program = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/)[0]!;
      if (!program.endsWith('/chromium')) continue;
      const pss = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      total += Number(pss?.[1] ?? 0) * 1024;
    } catch {
      // the process ended
    }
  }
  return total;
}

/**
 * Samples the page's JavaScript, and traces what its main thread does (Chromium's
 * timeline), until the returned function is called, which writes BENCH_PROFILE/`name`.cpuprofile
 * and `name`.trace.json (bench/lib/profile-summary.ts reads the first, Chromium's
 * Performance panel both).
 */
async function profilePage(browser: Browser, page: Page, cdp: CDPSession, name: string, isOn: boolean) {
  if (!isOn || !profileDir) return async () => {};
  await mkdir(profileDir, { recursive: true });
  await browser.startTracing(page, {
    path: path.join(profileDir, `${name}.trace.json`),
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'gpu', 'blink', 'v8.execute'],
  });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return async () => {
    const { profile } = await cdp.send('Profiler.stop');
    await writeFile(path.join(profileDir, `${name}.cpuprofile`), JSON.stringify(profile));
    await browser.stopTracing();
  };
}

/**
 * Bytes the page and its workers received (each answer's encoded body and headers) from now
 * until read. Playwright reports a dedicated worker's requests with its page's, which the
 * page's own DevTools session does not (the STL fallback reads in a Web Worker).
 */
function countBytes(context: BrowserContext) {
  let bytes = 0;
  const sizes: Promise<void>[] = [];
  const onFinished = (request: Request) => {
    sizes.push(
      request.sizes().then((size) => {
        bytes += size.responseBodySize + size.responseHeadersSize;
      }),
    );
  };
  context.on('requestfinished', onFinished);
  return async () => {
    context.off('requestfinished', onFinished);
    await Promise.all(sizes);
    return bytes;
  };
}

interface PathFigures {
  scanFirstViewS: number;
  scanWireMb: number;
  scanLongestTaskMs: number;
  planFirstStageS: number;
  playPace: number;
  planWireMb: number;
  planLongestTaskMs: number;
  memoryGrowthMb: number;
}

/** Signs in a fresh context as the doctor (its cookie and the app's stored session) on the throttled link. */
async function signedInPage(context: BrowserContext, baseUrl: string, username: string): Promise<[Page, CDPSession]> {
  await signInContext(context, baseUrl, username);
  const page = await context.newPage();
  page.setDefaultTimeout(600_000);
  const cdp = await context.newCDPSession(page);
  await onClinicLink(cdp);
  return [page, cdp];
}

const now = (page: Page) => page.evaluate(() => performance.now());

async function measurePath(
  browser: Browser,
  portal: { baseUrl: string },
  caseId: number,
  username: string,
  originals: boolean,
): Promise<PathFigures> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  if (originals) {
    // As before the copies existed: the viewer is told there is none and loads the STLs.
    await context.route(/\/api\/case\/(file-views\/\d+|\d+\/plans\/\d+\/views)$/, (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: '{"message":"Viewing copy not found"}' }),
    );
  }
  const [page, cdp] = await signedInPage(context, portal.baseUrl, username);
  await page.goto(`${portal.baseUrl}/cases/${caseId}`, { waitUntil: 'networkidle' });
  await page.getByRole('button', { name: 'View in 3D' }).waitFor();

  // The two scans: from the click to the canvas.
  let bytesSince = countBytes(context);
  let startedAt = await now(page);
  let stopProfile = await profilePage(browser, page, cdp, 'scans', !originals);
  let started = performance.now();
  await page.getByRole('button', { name: 'View in 3D' }).click();
  const scanDialog = page.getByRole('dialog', { name: '3D scan viewer' });
  await scanDialog.getByRole('img', { name: /^3D view of the upper/ }).waitFor();
  const scanFirstViewS = (performance.now() - started) / 1000;
  await stopProfile();
  const scanWireMb = mb(await bytesSince());
  const scanLongestTaskMs = await longestTask(page, startedAt);
  await scanDialog.getByRole('button', { name: 'Close 3D viewer' }).click();
  await scanDialog.waitFor({ state: 'detached' });

  // The plan: its first stage, then playing to the last stage, memory sampled all along.
  await page.waitForTimeout(1000);
  const memoryBefore = chromiumMemory();
  let memoryPeak = memoryBefore;
  const sampler = setInterval(() => (memoryPeak = Math.max(memoryPeak, chromiumMemory())), 250);
  bytesSince = countBytes(context);
  startedAt = await now(page);
  stopProfile = await profilePage(browser, page, cdp, 'plan', !originals);
  started = performance.now();
  await page.getByRole('button', { name: `View version ${1 + 2 * uploadRounds} in 3D` }).click();
  const planDialog = page.getByRole('dialog', { name: /^Treatment plan version/ });
  const shown = planDialog.locator('[data-shown-stage]');
  await planDialog.locator('[data-shown-stage="0"]').waitFor();
  const planFirstStageS = (performance.now() - started) / 1000;
  started = performance.now();
  await planDialog.getByRole('button', { name: 'Play the stages' }).click();
  await planDialog.locator(`[data-shown-stage="${planStages}"]`).waitFor({ timeout: 1_200_000 });
  // Playing shows stage 1 after one step: the viewer's own time for the stages after the first.
  const playPace = (performance.now() - started) / (planStages * playStepMs);
  await stopProfile();
  clearInterval(sampler);
  const planWireMb = mb(await bytesSince());
  const planLongestTaskMs = await longestTask(page, startedAt);
  expectEqual(await shown.getAttribute('data-shown-stage'), String(planStages));
  await planDialog.getByRole('button', { name: 'Close 3D viewer' }).click();
  await context.close();
  return {
    scanFirstViewS,
    scanWireMb,
    scanLongestTaskMs,
    planFirstStageS,
    playPace,
    planWireMb,
    planLongestTaskMs,
    memoryGrowthMb: mb(memoryPeak - memoryBefore),
  };
}

/** The load average over the last minute (the machine is shared: figures are read beside it). */
const loadAverage = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

interface FirstOpen {
  /** The longest main-thread task of the case page's own loading, before the click. */
  pageMs: number;
  /** The longest from the click on the viewer's button until `settleMs` after the view is shown: the viewer's. */
  fromClickMs: number;
  shownS: number;
  load: number;
}

/** How long the page is watched after the viewer is shown: its first frames reach the screen then. */
const settleMs = 2000;

/**
 * A viewer's first open as a person makes it, in a fresh browser context (nothing cached,
 * no chunk loaded, no WebGL context made yet): the case page is opened, and once it has
 * loaded (its requests done) the viewer's button is clicked; the longest main-thread task is
 * read from the click until `settleMs` after the view is shown, and the page's own before it
 * (long tasks, observed in the page from its start).
 */
async function firstOpen(
  browser: Browser,
  portal: { baseUrl: string },
  caseId: number,
  username: string,
  viewer: 'scans' | 'plan',
  profileName: string,
): Promise<FirstOpen> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const [page, cdp] = await signedInPage(context, portal.baseUrl, username);
  const stopProfile = await profilePage(browser, page, cdp, profileName, true);
  const load = loadAverage();
  await page.goto(`${portal.baseUrl}/cases/${caseId}`, { waitUntil: 'networkidle' });
  const button =
    viewer === 'scans'
      ? page.getByRole('button', { name: 'View in 3D' })
      : page.getByRole('button', { name: 'View version 1 in 3D' });
  await button.waitFor();
  const clickedAt = await now(page);
  const started = performance.now();
  await button.click();
  const dialog =
    viewer === 'scans'
      ? page.getByRole('dialog', { name: '3D scan viewer' })
      : page.getByRole('dialog', { name: /^Treatment plan version/ });
  await (
    viewer === 'scans'
      ? dialog.getByRole('img', { name: /^3D view of the upper/ })
      : dialog.locator('[data-shown-stage="0"]')
  ).waitFor();
  const shownS = (performance.now() - started) / 1000;
  await page.waitForTimeout(settleMs);
  await stopProfile();
  const figures = {
    pageMs: await page.evaluate(
      (before) =>
        Math.max(
          0,
          ...(globalThis as unknown as { longTasks: { start: number; duration: number }[] }).longTasks
            .filter((task) => task.start < before)
            .map((task) => task.duration),
        ),
      clickedAt,
    ),
    fromClickMs: await longestTask(page, clickedAt),
    shownS,
    load: Math.max(load, loadAverage()),
  };
  await context.close();
  return figures;
}

/**
 * Each viewer's first open, `runs` times, in turn (scans, plan, scans...): the plan viewer
 * is the baseline, measured the same way in the same run. Prints each open and returns the rows.
 */
async function firstOpens(browser: Browser, portal: { baseUrl: string }, caseId: number, username: string) {
  const runs = Number(process.env.BENCH_FIRST_OPEN_RUNS ?? 3);
  const opens = { scans: [] as FirstOpen[], plan: [] as FirstOpen[] };
  for (let run = 0; run < runs; run++) {
    for (const viewer of ['scans', 'plan'] as const) {
      const open = await firstOpen(browser, portal, caseId, username, viewer, `first-open-${viewer}-${run + 1}`);
      console.log(
        `first open of the ${viewer} viewer, run ${run + 1}: longest task ${fixed(open.fromClickMs, 0)} ms from the click (the page's own loading before it: ${fixed(open.pageMs, 0)} ms), shown in ${fixed(open.shownS, 1)} s, load average ${fixed(open.load, 2)}`,
      );
      opens[viewer].push(open);
    }
  }
  const described = (list: FirstOpen[]) =>
    `${fixed(median(list.map((open) => open.fromClickMs)), 0)} (median; ${list.map((open) => fixed(open.fromClickMs, 0)).join(', ')}; load ${list.map((open) => fixed(open.load, 1)).join(', ')})`;
  const worst = (list: FirstOpen[]) => Math.max(...list.map((open) => open.fromClickMs));
  return [
    {
      '': `first open of the case page's scan viewer: longest main-thread task (ms)`,
      'original STLs': '-',
      'viewing copies': described(opens.scans),
      goal: `<= ${goals.longestTaskMs}, every run`,
      met: worst(opens.scans) <= goals.longestTaskMs ? 'yes' : 'NO',
    },
    {
      '': `first open of the case page's plan viewer (the baseline): longest main-thread task (ms)`,
      'original STLs': '-',
      'viewing copies': described(opens.plan),
      goal: `<= ${goals.longestTaskMs}, every run`,
      met: worst(opens.plan) <= goals.longestTaskMs ? 'yes' : 'NO',
    },
  ];
}

function expectEqual(actual: unknown, expected: unknown) {
  if (actual !== expected) throw new Error(`expected ${String(expected)}, got ${String(actual)}`);
}

/** POST of a multipart form, timed from the first byte sent to the answer. */
async function timedPost(url: string, token: string, form: FormData) {
  const started = performance.now();
  const response = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const body = await response.text();
  if (!response.ok) throw new Error(`${url}: ${response.status} ${body}`);
  return { seconds: (performance.now() - started) / 1000, json: JSON.parse(body) as Record<string, unknown> };
}

/** Waits until no background job is queued or running (read from the plan and scan copy states). */
async function copiesSettled(baseUrl: string, token: string, urls: string[]) {
  for (;;) {
    const states = await Promise.all(
      urls.map(async (url) =>
        JSON.stringify(
          await (await fetch(`${baseUrl}${url}`, { headers: { authorization: `Bearer ${token}` } })).json(),
        ),
      ),
    );
    if (!states.some((state) => state.includes('"pending"'))) return states;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

export async function runViewerBenchmark() {
  const { portal, adminToken, doctor, stop } = await startPortalWithDoctor('viewer', { MAX_UPLOAD_BYTES: '2GB' });
  const browser = await chromium.launch({
    executablePath: chromePath,
    // As the browser tests launch it (e2e/helpers/browser.ts): WebGL in software, as on a machine without a GPU.
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
  });
  try {
    // The case with its two scans.
    const caseForm = new FormData();
    for (const [key, value] of Object.entries(benchCaseFields(doctor.clinicId))) caseForm.append(key, value);
    caseForm.append('maxillaryScan', new Blob([scanStl(scanTriangles, 1)]), 'upper.stl');
    caseForm.append('mandibularScan', new Blob([scanStl(scanTriangles - 7_000, 2)]), 'lower.stl');
    const created = await timedPost(`${portal.baseUrl}/api/case/add`, doctor.token, caseForm);
    const caseId = created.json.CaseId as number;
    const files = (await (
      await fetch(`${portal.baseUrl}/api/case/get_cases_attachments_by_case_id/${caseId}`, {
        headers: { authorization: `Bearer ${doctor.token}` },
      })
    ).json()) as { FilePath: string }[];
    const scanViews = files
      .filter((file) => file.FilePath.endsWith('.stl'))
      .map((file) => `/api/case/file-views/${file.FilePath.split('/').at(-2)}`);
    await copiesSettled(portal.baseUrl, doctor.token, scanViews);

    // The plan, twice: version 1 with nothing else running, version 2 while version 1's copies are being made.
    const planForm = () => {
      const form = new FormData();
      form.append(
        'summary',
        JSON.stringify({
          upperStages: planStages,
          lowerStages: planStages,
          ipr: [],
          attachmentTeeth: [],
          notes: 'Bench',
        }),
      );
      for (const arch of ['upper', 'lower'] as const) {
        let stage = 0;
        for (const stl of planArchStages(arch, { stages: planStages })) {
          form.append('stages', new Blob([stl]), `${arch}_${String(stage++).padStart(2, '0')}.stl`);
        }
      }
      return form;
    };
    const planUrl = `${portal.baseUrl}/api/case/${caseId}/plans`;
    const viewsOf = (upload: { json: Record<string, unknown> }) =>
      `/api/case/${caseId}/plans/${upload.json.planId as number}/views`;
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // Version 1 warms the server up. Then, `uploadRounds` times: a version timed with nothing
    // else running, and one timed while the version before's copies are being made; each
    // after the same pause, with the earlier files written out (sync), so that the disk's
    // write-back is not what is measured. Their medians are compared: one pair varies by
    // more than the goal's 10% on this machine.
    const form = planForm();
    const planBytes = [...form.getAll('stages')].reduce((sum, file) => sum + (file as Blob).size, 0);
    const uploads = [await timedPost(planUrl, adminToken, form)];
    // The movement table (issue 23), measured by the job that makes the plan's copy: from the
    // upload's answer until the API has it, with nothing else queued.
    const movementsUrl = `${portal.baseUrl}/api/case/${caseId}/plans/${uploads[0]!.json.planId as number}/movements`;
    const movementsStarted = performance.now();
    let movementTeeth = 0;
    // Until both arches are measured: an arch still being measured is named in `reason`.
    for (let measuring = true; measuring;) {
      await pause(100);
      const answer = await fetch(movementsUrl, { headers: { authorization: `Bearer ${doctor.token}` } });
      const movements = (await answer.json()) as { teeth: unknown[]; reason?: string };
      movementTeeth = movements.teeth.length;
      measuring = movementTeeth === 0 || movements.reason !== undefined;
    }
    const movementSeconds = (performance.now() - movementsStarted) / 1000;
    const quietSeconds: number[] = [];
    const busySeconds: number[] = [];
    let copiesRunning = true;
    for (let round = 0; round < (firstOpenOnly ? 0 : uploadRounds); round++) {
      await copiesSettled(portal.baseUrl, doctor.token, [...scanViews, ...uploads.map(viewsOf)]);
      await pause(2000);
      execSync('sync');
      const quiet = await timedPost(planUrl, adminToken, form);
      await pause(2000);
      execSync('sync');
      const state = await fetch(`${portal.baseUrl}${viewsOf(quiet)}`, {
        headers: { authorization: `Bearer ${doctor.token}` },
      });
      copiesRunning &&= JSON.stringify(await state.json()).includes('"pending"');
      const busy = await timedPost(planUrl, adminToken, form);
      uploads.push(quiet, busy);
      quietSeconds.push(quiet.seconds);
      busySeconds.push(busy.seconds);
    }
    const quietUpload = { seconds: median(quietSeconds) };
    const busyUpload = { seconds: median(busySeconds) };
    const settled = await copiesSettled(portal.baseUrl, doctor.token, [...scanViews, ...uploads.map(viewsOf)]);
    const copyBytes = settled.map((state) => JSON.parse(state) as Record<string, unknown>);

    const { username } = doctor;
    const firstOpenRows = await firstOpens(browser, portal, caseId, username);
    if (firstOpenOnly) {
      printTable(
        `Viewers' first open on a case page: Chromium headless at 50 Mbit/s, 20 ms; scans of ${scanTriangles} and ${scanTriangles - 7_000} triangles, a plan of ${planStages} stages x 2 arches`,
        firstOpenRows,
      );
      if (firstOpenRows.some((entry) => entry.met === 'NO')) process.exitCode = 1;
      return;
    }
    const copies = await measurePath(browser, portal, caseId, username, false);
    const originals = skipOriginals ? undefined : await measurePath(browser, portal, caseId, username, true);
    const row = (name: string, key: keyof PathFigures, goal: string, met: boolean, digits = 1) => ({
      '': name,
      'original STLs': originals ? fixed(originals[key], digits) : '-',
      'viewing copies': fixed(copies[key], digits),
      goal,
      met: met ? 'yes' : 'NO',
    });
    const rows = [
      row(
        'two scans: first view (s)',
        'scanFirstViewS',
        `<= ${goals.scanFirstViewS}`,
        copies.scanFirstViewS <= goals.scanFirstViewS,
      ),
      row(
        'two scans: on the wire (MB)',
        'scanWireMb',
        `<= ${goals.scanWireMb}`,
        copies.scanWireMb <= goals.scanWireMb,
        2,
      ),
      row(
        'plan: first stage (s)',
        'planFirstStageS',
        `<= ${goals.planFirstStageS}`,
        copies.planFirstStageS <= goals.planFirstStageS,
      ),
      row(
        'plan: on the wire, every stage (MB)',
        'planWireMb',
        `<= ${goals.planWireMb}`,
        copies.planWireMb <= goals.planWireMb,
        2,
      ),
      row('plan: playing, x the viewer pace', 'playPace', `<= ${goals.playPace}`, copies.playPace <= goals.playPace, 2),
      row(
        'scans: longest main-thread task (ms)',
        'scanLongestTaskMs',
        `<= ${goals.longestTaskMs}`,
        copies.scanLongestTaskMs <= goals.longestTaskMs,
        0,
      ),
      row(
        'plan: longest main-thread task (ms)',
        'planLongestTaskMs',
        `<= ${goals.longestTaskMs}`,
        copies.planLongestTaskMs <= goals.longestTaskMs,
        0,
      ),
      row(
        'plan: Chromium memory growth (MB)',
        'memoryGrowthMb',
        `<= ${goals.memoryGrowthMb}`,
        copies.memoryGrowthMb <= goals.memoryGrowthMb,
        0,
      ),
      ...firstOpenRows,
      {
        '': `plan: tooth movements measured after upload (s), ${movementTeeth} teeth`,
        'original STLs': '-',
        'viewing copies': fixed(movementSeconds, 1),
        goal: `<= ${goals.movementSeconds}`,
        met: movementSeconds <= goals.movementSeconds ? 'yes' : 'NO',
      },
      {
        '': `plan upload answer (s), ${fixed(mb(planBytes), 0)} MB in ${planStages * 2 + 2} STLs`,
        'original STLs': `${fixed(quietUpload.seconds, 2)} (median of ${quietSeconds.map((v) => fixed(v, 2)).join(', ')}: nothing else running)`,
        'viewing copies': `${fixed(busyUpload.seconds, 2)} (median of ${busySeconds.map((v) => fixed(v, 2)).join(', ')}: ${copiesRunning ? 'while' : 'NOT always while'} the version before's copies are made)`,
        goal: `<= ${fixed(quietUpload.seconds * goals.uploadSlowdown, 2)}`,
        met: busyUpload.seconds <= quietUpload.seconds * goals.uploadSlowdown ? 'yes' : 'NO',
      },
    ];
    printTable(
      `Viewer on real-sized meshes: Chromium headless at 50 Mbit/s, 20 ms; scans of ${scanTriangles} and ${scanTriangles - 7_000} triangles, a plan of ${planStages} stages x 2 arches`,
      rows,
    );
    console.log('Copies made:', JSON.stringify(copyBytes));
    if (rows.some((entry) => entry.met === 'NO')) process.exitCode = 1;
  } finally {
    await browser.close();
    await stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runViewerBenchmark();
}
