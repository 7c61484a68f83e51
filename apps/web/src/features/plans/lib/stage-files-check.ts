import { expectedStages, parseStageFileName, planArches, type PlanArch } from '@portal/contract';

export interface ArchStages {
  arch: PlanArch;
  /** Stages with at least one file, in order. */
  found: number[];
  /** Stages the typed count needs (0..N) without a file; undefined while the count is not typed. */
  missing: number[] | undefined;
  /** Stages with more than one file. */
  duplicates: number[];
  /** Stages past the typed count's last. */
  beyondLast: number[];
}

export interface StageFilesCheck {
  arches: ArchStages[];
  /** Names that say no arch and stage. */
  unreadable: string[];
}

/**
 * What the chosen files hold per arch, read from their names (loose STLs and a ZIP's entries,
 * stage-file-listing.ts) with the contract's parser (the server's), against the stage counts
 * (`undefined` while not typed): the stages found, missing, given twice or past the last. An
 * arch without counts or files is left out.
 */
export function checkStageFiles(fileNames: string[], counts: Record<PlanArch, number | undefined>): StageFilesCheck {
  const unreadable: string[] = [];
  const files: Record<PlanArch, Map<number, number>> = { upper: new Map(), lower: new Map() };
  for (const name of fileNames) {
    const parsed = parseStageFileName(name);
    if (!parsed) unreadable.push(name);
    else files[parsed.arch].set(parsed.stage, (files[parsed.arch].get(parsed.stage) ?? 0) + 1);
  }
  const arches = planArches.flatMap((arch): ArchStages[] => {
    const count = counts[arch];
    const found = [...files[arch].keys()].sort((a, b) => a - b);
    if (found.length === 0 && !count) return [];
    return [
      {
        arch,
        found,
        missing: count === undefined ? undefined : expectedStages(count).filter((stage) => !files[arch].has(stage)),
        duplicates: found.filter((stage) => files[arch].get(stage)! > 1),
        beyondLast: count === undefined ? [] : found.filter((stage) => stage > count),
      },
    ];
  });
  return { arches, unreadable };
}

/** Stage numbers as short runs: [0, 1, 2, 3, 5, 7, 8] is "0–3, 5, 7–8". */
export function stageRuns(stages: number[]): string {
  const runs: string[] = [];
  for (let at = 0; at < stages.length;) {
    let end = at;
    while (end + 1 < stages.length && stages[end + 1] === stages[end]! + 1) end++;
    runs.push(end === at ? String(stages[at]) : `${stages[at]}–${stages[end]}`);
    at = end + 1;
  }
  return runs.join(', ');
}
