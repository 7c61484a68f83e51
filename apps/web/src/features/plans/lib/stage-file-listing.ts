import { parseStageFileName, type PlanArch } from '@portal/contract';
import { listZipEntries } from './zip-entries.ts';

/** A ZIP chosen: how many stage files it lists, or why its list could not be read here. */
export type ZipListing = { name: string; entries: number } | { name: string; problem: string };

/** What the chosen files hold, by name: the STLs and the entries of each ZIP. */
export interface StageFileListing {
  /** The loose files' names and the ZIPs' entry names. */
  names: string[];
  zips: ZipListing[];
}

export const isZipName = (name: string) => /\.zip$/i.test(name);

/** Entries the server skips in a plan ZIP (readPlanZip, plan-zip.ts): folders, __MACOSX and dot files. */
export const isSkippedZipEntry = (path: string) =>
  path.endsWith('/') || path.split('/').includes('__MACOSX') || (path.split('/').pop() ?? '').startsWith('.');

/** The listing of files without a ZIP, which needs nothing read. */
export const looseListing = (files: File[]): StageFileListing => ({ names: files.map((file) => file.name), zips: [] });

/** Lists the chosen files: a ZIP's entries from its central directory (zip-entries.ts), the rest by name. */
export async function listStageFiles(files: File[]): Promise<StageFileListing> {
  const names: string[] = [];
  const zips: ZipListing[] = [];
  for (const file of files) {
    if (!isZipName(file.name)) {
      names.push(file.name);
      continue;
    }
    try {
      const entries = (await listZipEntries(file)).filter((entry) => !isSkippedZipEntry(entry));
      names.push(...entries);
      zips.push({ name: file.name, entries: entries.length });
    } catch (error) {
      // A file the browser cannot read (changed or removed since it was chosen) is as unlisted as a damaged ZIP.
      zips.push({ name: file.name, problem: (error as Error).message });
    }
  }
  return { names, zips };
}

/**
 * The stage counts the names give: each arch's last stage, 0 for an arch without files;
 * undefined when no name gives an arch and stage.
 */
export function stageCountsOf(names: string[]): Record<PlanArch, number> | undefined {
  const counts: Record<PlanArch, number> = { upper: 0, lower: 0 };
  let isAny = false;
  for (const name of names) {
    const parsed = parseStageFileName(name);
    if (!parsed) continue;
    isAny = true;
    counts[parsed.arch] = Math.max(counts[parsed.arch], parsed.stage);
  }
  return isAny ? counts : undefined;
}
