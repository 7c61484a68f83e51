import { inArray, or } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { progressScans } from '../../db/schema.ts';
import type { Storage } from '../../storage/storage.ts';
import { sweepUnreferenced } from '../sweep-unreferenced.ts';

/**
 * Deletes stored progress scans and their viewing copies (`progress/...`) that no
 * progress_scans row names, past the grace (sweep-unreferenced.ts). A copy being made is named
 * on its row before it is written, so it is kept. Returns how many were deleted.
 */
export function sweepOrphanedProgressFiles(
  deps: { db: Database; storage: Storage },
  options: { graceSeconds: number },
): Promise<number> {
  return sweepUnreferenced(deps.storage, 'progress', options, async (keys) => {
    const { upperKey, lowerKey, upperViewKey, lowerViewKey } = progressScans;
    const rows = await deps.db
      .select({ upperKey, lowerKey, upperViewKey, lowerViewKey })
      .from(progressScans)
      .where(
        or(
          inArray(upperKey, keys),
          inArray(lowerKey, keys),
          inArray(upperViewKey, keys),
          inArray(lowerViewKey, keys),
        ),
      );
    return rows.flatMap((row) => Object.values(row));
  });
}
