/**
 * Progress-scan accuracy and speed (issue 42): BENCH_TRACKING_CASES generated treatments (20), each
 * an arch of 14-16 teeth (about 150k triangles) with 30 stages, and a progress scan of it as
 * a scanner gives it (200k-500k triangles: crowns cut at a moving gum line, a gum band, its
 * own tessellation, 25 µm noise, the scanner's frame) at a random stage, with two teeth stuck
 * at an earlier stage (0.8 mm or 3 degrees off at least) and two 0.2 mm behind. Prints:
 * - each tooth's offset and angle against the truth the generator placed it at (95th
 *   percentile of the error; goal: 0.1 mm and 0.5 degrees), and off-track found against the
 *   truth (goal: sensitivity 98%, specificity 95%);
 * - a scan of the other arch and one of another patient for each case (goal: all refused);
 * - the fit's time and memory per arch beside its baseline in the same run: reading the same
 *   STLs into the same meshes (the plan's stages and the scan), which every way of comparing
 *   them must do first.
 *   node --import tsx bench/tracking.ts          BENCH_TRACKING_CASES=4 for a short run
 */
import { fitProgressScan, type ToothProgress } from '../apps/server/src/meshes/progress-fit.ts';
import { readStl } from '../apps/server/src/meshes/stl.ts';
import { weldVertices } from '../apps/server/src/meshes/weld.ts';
import type { Arch, PlanOptions } from '../apps/server/test/helpers/dental-meshes.ts';
import { planArchForFit } from '../apps/server/test/helpers/progress-plan.ts';
import { difference, progressScan, type ProgressScan } from '../apps/server/test/helpers/progress-scans.ts';
import { fixed, median, printTable } from './lib/measure.ts';

const caseCount = Number(process.env.BENCH_TRACKING_CASES ?? 20);
const thresholds = { offTrackMm: 0.5, offTrackDeg: 2 };

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
const seconds = (start: number) => (performance.now() - start) / 1000;

const offsetErrors: number[] = [];
const angleErrors: number[] = [];
const counts = { truePositive: 0, falseNegative: 0, trueNegative: 0, falsePositive: 0 };
const refusals = { wrongArch: 0, wrongPatient: 0, accepted: 0 };
const fitSeconds: number[] = [];
const readSeconds: number[] = [];
const heapPeaks: number[] = [];
const rows: Record<string, string>[] = [];

for (let n = 0; n < caseCount; n++) {
  const arch: Arch = n % 2 === 0 ? 'lower' : 'upper';
  const plan: PlanOptions = { seed: 100 + n, stages: 30, teeth: 14 + (n % 3), trianglesPerTooth: 10_600 };
  const stage = 6 + ((n * 7) % 23);
  let readStarted = performance.now();
  const planned = planArchForFit(arch, plan);
  const planRead = seconds(readStarted);
  const numbers = planned.teeth.map((tooth) => tooth.tooth).sort((a, b) => a - b);
  const pick = (k: number) => numbers[(n * 5 + k * 3) % numbers.length]!;
  const stuck = [pick(0), pick(1)];
  const behind = [pick(2), pick(3)].filter((tooth) => !stuck.includes(tooth));
  const scan = progressScan({
    arch,
    plan,
    stage,
    stuck,
    behind: behind.map((tooth) => ({ tooth, mm: 0.2 })),
    trianglesPerTooth: 24_000 + ((n * 9_000) % 45_000),
    seed: 500 + n,
  });
  readStarted = performance.now();
  const mesh = weldVertices(readStl(scan.stl).positions);
  readSeconds.push(planRead + seconds(readStarted));
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const result = fitProgressScan(planned, mesh, { stage, ...thresholds });
  fitSeconds.push(seconds(started));
  heapPeaks.push((process.memoryUsage().heapUsed - heapBefore) / 1e6);
  if ('refused' in result) {
    rows.push({ case: String(n), arch, stage: String(stage), result: `refused: ${result.refused}` });
    continue;
  }
  refusals.accepted++;
  tally(scan, stage, result.teeth);
  rows.push({
    case: String(n),
    arch,
    stage: String(stage),
    'scan triangles': String((scan.stl.length - 84) / 50),
    'rms mm': String(result.rmsMm),
    anchors: String(result.anchorTeeth.length),
    'off track (truth: stuck)': `${result.teeth
      .filter((tooth) => tooth.offTrack)
      .map((tooth) => tooth.tooth)
      .join(' ')} (${stuck.join(' ')})`,
    'fit s': fixed(fitSeconds.at(-1)!, 2),
  });
  // The same case's scan against the other arch's plan, and another patient's scan against this plan.
  const other = planArchForFit(arch === 'lower' ? 'upper' : 'lower', plan);
  if ('refused' in fitProgressScan(other, mesh, { stage, ...thresholds })) refusals.wrongArch++;
  const stranger = progressScan({
    arch,
    plan,
    patient: { ...plan, seed: 900 + n, scale: 0.9 + (n % 5) * 0.05 },
    stage,
    seed: 700 + n,
  });
  if (
    stranger.actual.size > 0 &&
    'refused' in fitProgressScan(planned, weldVertices(readStl(stranger.stl).positions), { stage, ...thresholds })
  )
    refusals.wrongPatient++;
}

function tally(scan: ProgressScan, stage: number, teeth: ToothProgress[]) {
  for (const tooth of teeth) {
    const plannedTooth = scan.planned.find((generated) => generated.universal === tooth.tooth)!;
    const truth = difference(scan.actual.get(tooth.tooth)!, {
      centroid: plannedTooth.centroids[stage]!,
      rotation: plannedTooth.rotations[stage]!,
    });
    offsetErrors.push(Math.abs(tooth.offsetMm - truth.mm));
    angleErrors.push(Math.abs(tooth.angleDeg - truth.degrees));
    const isOff = truth.mm > thresholds.offTrackMm || truth.degrees > thresholds.offTrackDeg;
    if (isOff) counts[tooth.offTrack ? 'truePositive' : 'falseNegative']++;
    else counts[tooth.offTrack ? 'falsePositive' : 'trueNegative']++;
  }
}

printTable(`Progress scans: ${caseCount} generated cases, 30 stages`, rows);
const sensitivity = counts.truePositive / (counts.truePositive + counts.falseNegative);
const specificity = counts.trueNegative / (counts.trueNegative + counts.falsePositive);
printTable(
  'Accuracy against the truth (goals: 0.1 mm, 0.5 degrees at p95; 98% sensitivity, 95% specificity; every wrong scan refused)',
  [
    {
      teeth: String(offsetErrors.length),
      'offset error p95 mm': fixed(percentile(offsetErrors, 95), 3),
      'offset error max mm': fixed(Math.max(...offsetErrors), 3),
      'angle error p95 deg': fixed(percentile(angleErrors, 95), 2),
      'angle error max deg': fixed(Math.max(...angleErrors), 2),
      sensitivity: `${fixed(100 * sensitivity, 1)}% (${counts.truePositive}/${counts.truePositive + counts.falseNegative})`,
      specificity: `${fixed(100 * specificity, 1)}% (${counts.trueNegative}/${counts.trueNegative + counts.falsePositive})`,
      'own scans fitted': `${refusals.accepted}/${caseCount}`,
      'other arch refused': `${refusals.wrongArch}/${refusals.accepted}`,
      'other patient refused': `${refusals.wrongPatient}/${refusals.accepted}`,
    },
  ],
);
printTable('Time per arch (one thread), beside reading the same STLs into meshes (the baseline)', [
  {
    'fit median s': fixed(median(fitSeconds), 2),
    'fit max s': fixed(Math.max(...fitSeconds), 2),
    'baseline: read plan stages and scan, median s': fixed(median(readSeconds), 2),
    'fit heap growth median MB': fixed(median(heapPeaks), 0),
  },
]);
