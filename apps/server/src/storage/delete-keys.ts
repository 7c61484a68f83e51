import type { Storage } from './storage.ts';

/** Best-effort clean-up after a failure or a replacement: a key already gone is not an error. */
export async function deleteKeys(storage: Storage, keys: string[]): Promise<void> {
  await Promise.all(keys.map((key) => storage.delete(key).catch(() => {})));
}
