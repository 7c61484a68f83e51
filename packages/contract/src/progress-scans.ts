import { z } from 'zod';
import { planArches } from './plans.ts';
import { toothLabel, type NumberingSystem } from './tooth-numbering.ts';

/**
 * Progress scans (issue 42, docs/decisions/progress-scans.md): a mid-treatment scan compared
 * with the approved plan's stage the patient wears, tooth by tooth, by a background job.
 */

export const progressScanStates = ['queued', 'running', 'done', 'failed'] as const;
export type ProgressScanState = (typeof progressScanStates)[number];

/** The most progress scans a case keeps. */
export const maxProgressScansPerCase = 100;

export const progressScanArchFields = ['upper', 'lower'] as const;

export const progressScanForm = z.object({
  stage: z.string().meta({
    description: "The aligner the patient wears now: a stage from 1 to the approved version's last",
  }),
});

export const progressScanCreated = z.object({
  progressScanId: z.number(),
  state: z.enum(progressScanStates),
});

const xyz = <K extends string>(keys: readonly [K, K, K]) =>
  z.object(Object.fromEntries(keys.map((key) => [key, z.number()])) as Record<K, z.ZodNumber>);

export const progressScanTooth = z.object({
  /** Universal number 1-32, as in the movement table. */
  tooth: z.number().int(),
  /** The distance of the tooth's centre from its planned centre at the stage worn. */
  offsetMm: z.number(),
  /** The angle of the rotation between the tooth and its planned place. */
  angleDeg: z.number(),
  translationMm: xyz(['mesiodistal', 'buccolingual', 'vertical'] as const),
  rotationDeg: xyz(['tip', 'torque', 'rotation'] as const),
  /** The plan's stage the tooth is closest to. */
  matchedStage: z.number().int(),
  /** The share of the movement planned so far that the tooth made; null when almost none was planned. */
  achievedPercent: z.number().nullable(),
  offTrack: z.boolean(),
});
export type ProgressScanTooth = z.infer<typeof progressScanTooth>;

export const progressScanArch = z.object({
  arch: z.enum(planArches),
  /** The fit's residual on its anchor teeth. */
  rmsMm: z.number(),
  /** The teeth the fit was anchored on. */
  anchorTeeth: z.array(z.number().int()),
  teeth: z.array(progressScanTooth),
  /** Planned teeth the scan shows too little of to measure. */
  notInView: z.array(z.number().int()),
});
export type ProgressScanArch = z.infer<typeof progressScanArch>;

export const progressScanSummary = z.object({
  /** Off-track teeth (Universal numbers), in order. */
  offTrackTeeth: z.array(z.number().int()),
  /** Teeth measured. */
  teeth: z.number().int(),
  /** "4 of 28 teeth off track: 2, 3, 13, 21; the rest on track". */
  sentence: z.string(),
});
export type ProgressScanSummary = z.infer<typeof progressScanSummary>;

export const progressScan = z.object({
  progressScanId: z.number(),
  planId: z.number(),
  stage: z.number().int(),
  state: z.enum(progressScanStates),
  /** Why the scan failed: the fit's refusal, or a file that could not be read (in English). */
  reason: z.string().optional(),
  /** The reason's code in `serverMessages` and its values, for the reader's language (as a refusal's). */
  reasonCode: z.string().optional(),
  reasonParams: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  arches: z.array(progressScanArch),
  /** The arches sent. */
  sent: z.array(z.enum(planArches)),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ProgressScan = z.infer<typeof progressScan>;

export const progressScanListItem = progressScan.omit({ arches: true }).extend({
  summary: progressScanSummary.nullable(),
});
export type ProgressScanListItem = z.infer<typeof progressScanListItem>;

/**
 * The one-line summary of a done scan's teeth: `offTrackTeeth` in Universal numbers, the
 * sentence's teeth in `system` (Universal unless a reader's numbering is given, as the lab's mail does).
 */
export function summarizeProgress(
  arches: readonly ProgressScanArch[],
  system: NumberingSystem = 'Universal',
): ProgressScanSummary {
  const teeth = arches.flatMap((arch) => arch.teeth);
  const offTrackTeeth = teeth
    .filter((tooth) => tooth.offTrack)
    .map((tooth) => tooth.tooth)
    .sort((a, b) => a - b);
  const of = `${offTrackTeeth.length} of ${teeth.length} teeth`;
  const named = offTrackTeeth.map((tooth) => toothLabel(tooth, system)).join(', ');
  const sentence =
    offTrackTeeth.length === 0
      ? `All ${teeth.length} teeth on track`
      : offTrackTeeth.length === teeth.length
        ? `${of} off track: ${named}`
        : `${of} off track: ${named}; the rest on track`;
  return { offTrackTeeth, teeth: teeth.length, sentence };
}
