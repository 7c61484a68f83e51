import { inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.ts';
import { caseAttachments, caseMessageFiles, meshViews } from '../../db/schema.ts';
import type { Storage } from '../../storage/storage.ts';

/** Keys looked up in the database at once. */
const batchSize = 500;

/** Each folder uploads stream into, and the rows that refer to its keys once committed. */
const sweptFolders: { prefix: string; table: PgTable; storageKey: PgColumn }[] = [
  { prefix: 'cases', table: caseAttachments, storageKey: caseAttachments.storageKey },
  { prefix: 'messages', table: caseMessageFiles, storageKey: caseMessageFiles.storageKey },
  // A viewing copy stored by a job whose process died before it recorded the copy.
  { prefix: 'views', table: meshViews, storageKey: meshViews.viewKey },
];

/**
 * Deletes stored case and message files that no attachment or message file row references: what a process killed
 * mid-upload leaves behind, since its own clean-up never ran. Only files last modified
 * more than `graceSeconds` ago are candidates, so an upload still in progress on another
 * process sharing the storage (its rows are committed only after its last file) keeps its
 * files. Returns how many files were deleted.
 */
export async function sweepOrphanedCaseFiles(
  deps: { db: Database; storage: Storage },
  options: { graceSeconds: number },
): Promise<number> {
  const cutoff = Date.now() - options.graceSeconds * 1000;
  let swept = 0;
  for (const folder of sweptFolders) {
    let batch: string[] = [];
    const sweepBatch = async () => {
      const referenced = await deps.db
        .select({ key: folder.storageKey })
        .from(folder.table)
        .where(inArray(folder.storageKey, batch));
      const kept = new Set(referenced.map((row) => row.key as string));
      for (const key of batch) {
        if (kept.has(key)) continue;
        await deps.storage.delete(key);
        swept++;
      }
      batch = [];
    };
    for await (const entry of deps.storage.list(folder.prefix)) {
      if (entry.lastModified.getTime() > cutoff) continue;
      batch.push(entry.key);
      if (batch.length >= batchSize) await sweepBatch();
    }
    if (batch.length > 0) await sweepBatch();
  }
  return swept;
}
