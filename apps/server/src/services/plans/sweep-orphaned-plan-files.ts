import { inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { planStageFiles } from '../../db/schema.ts';
import type { Storage } from '../../storage/storage.ts';

const batchSize = 500;

/**
 * Deletes stored stage models (`plans/...`) that no plan_stage_files row references: what a
 * process killed mid-upload leaves, since its own clean-up never ran. As for case files
 * (services/cases/sweep-orphaned-files.ts), only objects older than `graceSeconds` are
 * candidates, so an upload still running on another process keeps its files (its rows
 * are committed only after its last file). Returns how many were deleted.
 */
export async function sweepOrphanedPlanFiles(
  deps: { db: Database; storage: Storage },
  options: { graceSeconds: number },
): Promise<number> {
  const cutoff = Date.now() - options.graceSeconds * 1000;
  let swept = 0;
  let batch: string[] = [];
  const sweepBatch = async () => {
    const referenced = await deps.db
      .select({ key: planStageFiles.storageKey })
      .from(planStageFiles)
      .where(inArray(planStageFiles.storageKey, batch));
    const kept = new Set(referenced.map((row) => row.key));
    for (const key of batch) {
      if (kept.has(key)) continue;
      await deps.storage.delete(key);
      swept++;
    }
    batch = [];
  };
  for await (const entry of deps.storage.list('plans')) {
    if (entry.lastModified.getTime() > cutoff) continue;
    batch.push(entry.key);
    if (batch.length >= batchSize) await sweepBatch();
  }
  if (batch.length > 0) await sweepBatch();
  return swept;
}
