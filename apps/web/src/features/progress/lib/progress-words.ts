import { msg, plural } from '@lingui/core/macro';
import { toothLabel, type NumberingSystem, type ProgressScanArch, type ProgressScanSummary } from '@portal/contract';
import { formatDegrees, formatMm, formatPercent } from '../../../lib/format-number.ts';
import { i18n } from '../../../lib/i18n.ts';

/** The stage a tooth matches, against the stage worn: "3 stages behind", "on stage", "1 stage ahead". */
export function stageWords(matchedStage: number, wornStage: number): string {
  const gap = matchedStage - wornStage;
  if (gap === 0) return i18n._(msg`on stage`);
  const count = Math.abs(gap);
  return gap < 0
    ? i18n._(msg`${plural(count, { one: '# stage behind', other: '# stages behind' })}`)
    : i18n._(msg`${plural(count, { one: '# stage ahead', other: '# stages ahead' })}`);
}

/** Teeth (Universal numbers) in the case's numbering, in the order given: "13, 12, 23". */
export const toothList = (teeth: readonly number[], system: NumberingSystem) =>
  teeth.map((tooth) => toothLabel(tooth, system)).join(', ');

/**
 * The contract's summary sentence (summarizeProgress) in the case's numbering:
 * "4 of 28 teeth off track: 2, 3, 13, 21; the rest on track".
 */
export function summarySentence(summary: ProgressScanSummary, system: NumberingSystem): string {
  const { offTrackTeeth, teeth } = summary;
  if (offTrackTeeth.length === 0) return i18n._(msg`All ${teeth} teeth on track`);
  const offTrack = offTrackTeeth.length;
  const list = toothList(offTrackTeeth, system);
  return offTrack === teeth
    ? i18n._(msg`${offTrack} of ${teeth} teeth off track: ${list}`)
    : i18n._(msg`${offTrack} of ${teeth} teeth off track: ${list}; the rest on track`);
}

/** "62%", or "—" when almost no movement was planned by then (nothing to achieve). */
export const achievedWords = (percent: number | null) => (percent === null ? '—' : formatPercent(percent));

/** The fit's trust line of an arch: "Anchored on 12 teeth (…), residual 0.02 mm". */
export function trustWords(arch: ProgressScanArch, system: NumberingSystem): string {
  const count = arch.anchorTeeth.length;
  const list = toothList(arch.anchorTeeth, system);
  const residual = formatMm(arch.rmsMm, 3);
  return i18n._(
    msg`Anchored on ${plural(count, { one: '# tooth', other: '# teeth' })} (${list}), residual ${residual}`,
  );
}

/**
 * The refinement order's special instructions from a progress scan's result: which teeth are
 * off track, how far, in the case's numbering, so the lab reads it where it reads the doctor's words.
 */
export function refinementInstructions(
  scan: { stage: number; createdAt: string; arches: readonly ProgressScanArch[] },
  system: NumberingSystem,
  date: string,
): string {
  const offTrack = scan.arches
    .flatMap((arch) => arch.teeth)
    .filter((tooth) => tooth.offTrack)
    .sort((a, b) => a.tooth - b.tooth);
  const lines = offTrack.map((tooth) => {
    const name = toothLabel(tooth.tooth, system);
    const offset = formatMm(tooth.offsetMm, 2);
    const angle = formatDegrees(tooth.angleDeg, 1);
    const stage = stageWords(tooth.matchedStage, scan.stage);
    return i18n._(msg`${name}: ${offset}, ${angle} off the plan, ${stage}`);
  });
  const aligner = scan.stage;
  const list = toothList(
    offTrack.map((tooth) => tooth.tooth),
    system,
  );
  return [
    i18n._(msg`Refinement from the progress scan of ${date} at aligner ${aligner} (${system} numbering).`),
    i18n._(msg`Off track: ${list}.`),
    ...lines,
  ].join('\n');
}
