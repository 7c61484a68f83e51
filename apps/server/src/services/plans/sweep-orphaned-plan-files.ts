import { inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { planStageFiles } from '../../db/schema.ts';
import type { Storage } from '../../storage/storage.ts';
import { sweepUnreferenced } from '../sweep-unreferenced.ts';

/**
 * Deletes stored stage models (`plans/...`) that no plan_stage_files row references, past the
 * grace (sweep-unreferenced.ts). Returns how many were deleted.
 */
export function sweepOrphanedPlanFiles(
  deps: { db: Database; storage: Storage },
  options: { graceSeconds: number },
): Promise<number> {
  return sweepUnreferenced(deps.storage, 'plans', options, async (keys) => {
    const rows = await deps.db
      .select({ key: planStageFiles.storageKey })
      .from(planStageFiles)
      .where(inArray(planStageFiles.storageKey, keys));
    return rows.map((row) => row.key);
  });
}
