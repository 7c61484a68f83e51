import { inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { caseAttachments } from '../../db/schema.ts';
import type { Storage } from '../../storage/storage.ts';

/** Keys looked up in the database at once. */
const batchSize = 500;

/**
 * Deletes stored case files that no attachment row references: what a process killed
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
  let batch: string[] = [];
  const sweepBatch = async () => {
    const referenced = await deps.db
      .select({ key: caseAttachments.storageKey })
      .from(caseAttachments)
      .where(inArray(caseAttachments.storageKey, batch));
    const kept = new Set(referenced.map((row) => row.key));
    for (const key of batch) {
      if (kept.has(key)) continue;
      await deps.storage.delete(key);
      swept++;
    }
    batch = [];
  };
  for await (const entry of deps.storage.list('cases')) {
    if (entry.lastModified.getTime() > cutoff) continue;
    batch.push(entry.key);
    if (batch.length >= batchSize) await sweepBatch();
  }
  if (batch.length > 0) await sweepBatch();
  return swept;
}
