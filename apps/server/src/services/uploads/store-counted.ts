import type { Readable } from 'node:stream';
import { FileInspector } from '../cases/file-checks.ts';
import type { Storage } from '../../storage/storage.ts';

/** Reads a stream to its end without keeping it (the parser reads the next part only then). */
export function drainStream(stream: Readable): Promise<void> {
  return new Promise((resolve, reject) => {
    if (stream.readableEnded) return resolve();
    stream.once('end', resolve).once('error', reject);
    stream.resume();
  });
}

/**
 * Streams one file part into storage under `storageKey` through a FileInspector that counts
 * its bytes against the request's `budget`: past it, or cut at the parser's file limit, the
 * write stops, the object is gone and `tooLarge()` is thrown. Answers the inspector (bytes,
 * head, SHA-256) for the caller's content check.
 */
export async function storeCounted(
  storage: Storage,
  storageKey: string,
  source: Readable & { truncated?: boolean },
  budget: { remaining: number },
  tooLarge: () => Error,
): Promise<FileInspector> {
  let failure: unknown;
  let isOverBudget = false;
  const inspector = new FileInspector((_meter, chunkBytes) => {
    budget.remaining -= chunkBytes;
    if (budget.remaining < 0) {
      isOverBudget = true;
      throw new Error('upload stopped: too large');
    }
  });
  source.once('error', (error) => {
    failure = error;
    inspector.destroy(error);
  });
  // The driver sees any failure through its own pipeline; this keeps one raised before it
  // attaches from being an uncaught 'error' event.
  inspector.on('error', () => {});
  source.pipe(inspector);
  try {
    await storage.put(storageKey, inspector, 'application/octet-stream');
  } catch (error) {
    if (isOverBudget) throw tooLarge();
    throw failure ?? error;
  }
  if (source.truncated) {
    await storage.delete(storageKey);
    throw tooLarge();
  }
  return inspector;
}
