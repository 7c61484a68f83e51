/**
 * A progress scan's job end to end (issue 42): a real portal process (as `npm start` runs it,
 * on a fresh data folder), a case with an approved 30-stage plan of both arches (15 teeth of
 * about 10.6k triangles each: 159k triangles an arch, 8 MB a stage), and two progress scans of
 * about 300k triangles each (apps/server/test/helpers/progress-scans.ts: crowns, a gum band,
 * 25 µm noise, the scanner's frame, two teeth stuck) sent by real HTTP. Timed from the POST's
 * first byte to the `done` answer of GET .../progress-scans/{id}, read when the
 * `case.progressScan` event says done (as the web app learns it, on /api/events), and
 * the POST alone (the request only stores the files).
 * The job goes on after the answer with each arch's viewing copy (in the fit's pool): its end,
 * when both copies are made, is timed too.
 * Memory: the portal process's resident memory (VmRSS from /proc, every 10 ms) from just
 * before the POST to its peak until the answer and until the job's end, the request and the
 * job together, every thread of the process
 * (the fit runs in a pool thread of the same process, so no figure of its own is there to
 * read); beside it the process's CPU seconds until the answer, which a busy machine
 * disturbs less than the wall time, split by thread (/proc/<pid>/task): the event loop, the
 * pool's thread (the fit, and the scan's viewing copy made in the same thread), V8's helpers.
 * Each run in a portal process of its own, started on the seeded data folder and idle until
 * the POST: nothing the seeding kept (the plan's 500 MB upload, its processing) is in its
 * memory, and the fit's pool starts a thread for it, as for a scan sent after a quiet spell.
 * Runs: the plan as its processing stored it for the fit
 * (services/plans/plan-fit-data.ts), then the path before that (the stored arch deleted, so
 * the job reads every stage's STL, and stores it again), then the stored path again.
 * Baseline in the same run, in this process: reading the two scans' STLs into welded meshes
 * and one stage's STL into the plan's (what any comparison of them must do first).
 *   node --import tsx bench/progress-job.ts
 * With PORTAL_NODE_OPTIONS='--cpu-prof --cpu-prof-dir=<folder>' each run's process writes a
 * CPU profile per thread (bench/lib/profile-summary.ts reads them).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { planBase } from '../apps/server/src/meshes/plan-view.ts';
import { readStl } from '../apps/server/src/meshes/stl.ts';
import { weldVertices } from '../apps/server/src/meshes/weld.ts';
import { openEventStream } from '../apps/server/test/helpers/event-stream.ts';
import type { PlanOptions } from '../apps/server/test/helpers/dental-meshes.ts';
import { progressScan } from '../apps/server/test/helpers/progress-scans.ts';
import { call, caseWithApprovedPlan, formOf, pause } from './lib/progress-seed.ts';
import { startPortal } from '../e2e/helpers/portal-process.ts';
import { benchAdmin, startPortalWithDoctor } from './lib/seed-api.ts';
import { cpuSecondsOf, fixed, mb, printTable, rssOf } from './lib/measure.ts';

const plan: PlanOptions = { seed: 101, stages: 30, teeth: 15, trianglesPerTooth: 10_600 };
const stage = 12;
const goals = { seconds: 10, memoryMb: 400 };

/**
 * CPU seconds of a process's threads by name (/proc/<pid>/task): MainThread (the event loop),
 * WorkerThread (the pools' threads; the stored path starts only the fit's), V8Worker (V8's
 * helpers: garbage collection, compilation), and the rest.
 */
function threadCpu(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const key = ['MainThread', 'WorkerThread', 'V8Worker'].includes(name) ? name : 'other';
      byName.set(key, (byName.get(key) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // the thread ended
    }
  }
  return byName;
}

const env = { MAX_UPLOAD_BYTES: '2GB' };
// Profiles (when asked for) of the runs' processes alone, not of the seeding's.
const profiling = process.env.PORTAL_NODE_OPTIONS;
delete process.env.PORTAL_NODE_OPTIONS;
const { portal: seeding, adminToken, doctor, dataDir, stop } = await startPortalWithDoctor('progress', env);
try {
  let base = seeding.baseUrl;
  const { caseId, stageFiles } = await caseWithApprovedPlan(base, adminToken, doctor, plan);
  const scans = (['upper', 'lower'] as const).map((arch) =>
    progressScan({
      arch,
      plan,
      stage,
      stuck: arch === 'upper' ? [3, 10] : [19, 28],
      seed: 5,
      trianglesPerTooth: 33_000,
    }),
  );
  const scanTriangles = scans.map((scan) => (scan.stl.length - 84) / 50);
  const storedFits = path.join(dataDir, 'files', 'plan-fits');

  // The baseline: the same two scans and one stage read into meshes, in this process.
  const readStarted = performance.now();
  for (const scan of scans) weldVertices(readStl(scan.stl).positions);
  planBase(stageFiles[stage]![1]);
  const baselineSeconds = (performance.now() - readStarted) / 1000;

  // The seeding process's environment, as startPortalWithDoctor gave it (its data folder, database and administrator).
  const runEnv = {
    ...env,
    DATA_DIR: dataDir,
    ADMIN_USERNAME: benchAdmin.username,
    ADMIN_PASSWORD: benchAdmin.password,
    DATABASE_URL: process.env.DATABASE_URL ?? '',
  };
  await seeding.stop();
  if (profiling) process.env.PORTAL_NODE_OPTIONS = profiling;
  const sendAndWait = async () => {
    const portal = await startPortal(runEnv, { quiet: true });
    try {
      base = portal.baseUrl;
      return await timedRun(portal.child.pid!);
    } finally {
      await portal.stop();
    }
  };
  const timedRun = async (pid: number) => {
    const events = await openEventStream(`${base}/api/events`, { authorization: `Bearer ${doctor.token}` });
    await pause(2000);
    const rssBefore = rssOf(pid);
    const cpuBefore = cpuSecondsOf(pid);
    const threadsBefore = threadCpu(pid);
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssOf(pid))), 10);
    const started = performance.now();
    const sent = await call(`${base}/api/case/${caseId}/progress-scans`, doctor.token, {
      method: 'POST',
      body: formOf({ stage: String(stage) }, [
        ['upper', scans[0]!.stl, 'upper.stl'],
        ['lower', scans[1]!.stl, 'lower.stl'],
      ]),
    });
    const postSeconds = (performance.now() - started) / 1000;
    const rssAtPost = rssPeak;
    const progressScanId = sent.progressScanId as number;
    // As the web app learns it: the scan's event, then its answer read once.
    await events.waitFor(
      ({ type, data }) =>
        type === 'case.progressScan' &&
        (data as { progressScanId: number }).progressScanId === progressScanId &&
        ['done', 'failed'].includes((data as { state: string }).state),
      300_000,
    );
    const answer = await call(`${base}/api/case/${caseId}/progress-scans/${progressScanId}`, doctor.token);
    const seconds = (performance.now() - started) / 1000;
    const rssAtAnswer = rssPeak;
    const cpuAtAnswer = cpuSecondsOf(pid);
    const threadsAfter = threadCpu(pid);
    events.close();
    // The job goes on after the answer with each arch's viewing copy: its end is when both are
    // made (the copy's route answers 409 while one is being made).
    for (const arch of ['upper', 'lower']) {
      const url = `${base}/api/case/${caseId}/progress-scans/${progressScanId}/view/${arch}`;
      while ((await fetch(url, { headers: { authorization: `Bearer ${doctor.token}` } })).status === 409) {
        await pause(250);
      }
    }
    const jobSeconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const threadSeconds = (name: string) => (threadsAfter.get(name) ?? 0) - (threadsBefore.get(name) ?? 0);
    const arches = answer.arches as { teeth: { offTrack: boolean; tooth: number }[] }[];
    return {
      state: `${answer.state as string}${answer.reason ? `: ${answer.reason as string}` : ''}`,
      offTrack: arches.flatMap((arch) => arch.teeth.filter((tooth) => tooth.offTrack).map((tooth) => tooth.tooth)),
      seconds,
      postSeconds,
      jobSeconds,
      cpuSeconds: cpuAtAnswer - cpuBefore,
      threads: ['MainThread', 'WorkerThread', 'V8Worker'].map((name) => fixed(threadSeconds(name), 2)).join(' / '),
      postMemoryMb: mb(rssAtPost - rssBefore),
      memoryMb: mb(rssAtAnswer - rssBefore),
      jobMemoryMb: mb(rssPeak - rssBefore),
      rssBeforeMb: mb(rssBefore),
    };
  };

  const stored = (await readdir(storedFits)).length;
  const runs = [{ path: `plan as stored for fits (${stored} arches)`, ...(await sendAndWait()) }];
  await rm(storedFits, { recursive: true, force: true });
  runs.push({ path: "before: every stage's STL read", ...(await sendAndWait()) });
  runs.push({ path: 'stored again (by the run before)', ...(await sendAndWait()) });

  printTable(
    `Progress scan job, upload to answer: two scans of ${scanTriangles.join(' and ')} triangles, a plan of ${plan.stages} stages x 2 arches (${plan.teeth} teeth, 159k triangles an arch); goal ${goals.seconds} s, ${goals.memoryMb} MB`,
    [
      ...runs.map((run) => ({
        path: run.path,
        result: run.state === 'done' ? `done, off track: ${run.offTrack.join(' ')}` : run.state,
        'POST s': fixed(run.postSeconds, 2),
        'upload to answer s': fixed(run.seconds, 2),
        'job end s': fixed(run.jobSeconds, 2),
        'server CPU s to answer': fixed(run.cpuSeconds, 2),
        'of it: main / pool thread / V8 helpers': run.threads,
        'RSS growth to POST / answer / job end MB': `${fixed(run.postMemoryMb, 0)} / ${fixed(run.memoryMb, 0)} / ${fixed(run.jobMemoryMb, 0)}`,
        'RSS before MB': fixed(run.rssBeforeMb, 0),
        met: run.seconds <= goals.seconds && run.jobMemoryMb <= goals.memoryMb ? 'yes' : 'NO',
      })),
      {
        path: 'baseline: the two scans and one stage read into meshes (this process)',
        result: '',
        'POST s': '',
        'upload to answer s': fixed(baselineSeconds, 2),
        'job end s': '',
        'server CPU s to answer': '',
        'of it: main / pool thread / V8 helpers': '',
        'RSS growth to POST / answer / job end MB': '',
        'RSS before MB': '',
        met: '',
      },
    ],
  );
} finally {
  await stop();
}
