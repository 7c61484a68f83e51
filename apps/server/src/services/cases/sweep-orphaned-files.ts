import { inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.ts';
import { caseAttachments, caseMessageFiles, meshViews } from '../../db/schema.ts';
import type { Storage } from '../../storage/storage.ts';
import { sweepUnreferenced } from '../sweep-unreferenced.ts';

/** Each folder uploads stream into, and the rows that refer to its keys once committed. */
const sweptFolders: { prefix: string; table: PgTable; storageKey: PgColumn }[] = [
  { prefix: 'cases', table: caseAttachments, storageKey: caseAttachments.storageKey },
  { prefix: 'messages', table: caseMessageFiles, storageKey: caseMessageFiles.storageKey },
  // A viewing copy stored by a job whose process died before it recorded the copy.
  { prefix: 'views', table: meshViews, storageKey: meshViews.viewKey },
];

/**
 * Deletes stored case and message files (and viewing copies) that no row references, past the
 * grace (sweep-unreferenced.ts). Returns how many files were deleted.
 */
export async function sweepOrphanedCaseFiles(
  deps: { db: Database; storage: Storage },
  options: { graceSeconds: number },
): Promise<number> {
  let swept = 0;
  for (const folder of sweptFolders) {
    swept += await sweepUnreferenced(deps.storage, folder.prefix, options, async (keys) => {
      const rows = await deps.db
        .select({ key: folder.storageKey })
        .from(folder.table)
        .where(inArray(folder.storageKey, keys));
      return rows.map((row) => row.key as string);
    });
  }
  return swept;
}
