import type { Storage } from '../storage/storage.ts';

/** Keys looked up in the database at once. */
const batchSize = 500;

/**
 * Deletes the objects under `prefix` last modified more than `graceSeconds` ago that
 * `referenced` does not name: what a process killed mid-upload leaves, since its own clean-up
 * never ran. The grace keeps an upload still running on another process sharing the storage
 * (its rows are committed only after its last file). `referenced` is asked about the keys a
 * batch at a time and answers those some row names. Returns how many were deleted.
 */
export async function sweepUnreferenced(
  storage: Storage,
  prefix: string,
  options: { graceSeconds: number },
  referenced: (keys: string[]) => Promise<Iterable<string | null>>,
): Promise<number> {
  const cutoff = Date.now() - options.graceSeconds * 1000;
  let swept = 0;
  let batch: string[] = [];
  const sweepBatch = async () => {
    const kept = new Set(await referenced(batch));
    for (const key of batch) {
      if (kept.has(key)) continue;
      await storage.delete(key);
      swept++;
    }
    batch = [];
  };
  for await (const entry of storage.list(prefix)) {
    if (entry.lastModified.getTime() > cutoff) continue;
    batch.push(entry.key);
    if (batch.length >= batchSize) await sweepBatch();
  }
  if (batch.length > 0) await sweepBatch();
  return swept;
}
