import { eq } from 'drizzle-orm';
import { buffer } from 'node:stream/consumers';
import type { Database } from '../db/client.ts';
import { meshViews } from '../db/schema.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { AppError, notFound } from '../lib/errors.ts';
import type { ViewingDerivative } from '../meshes/derivative.ts';
import type { Storage } from '../storage/storage.ts';
import { contentTypeOf } from './cases/file-checks.ts';

/**
 * Viewing copies of stored STLs (docs/decisions/meshes.md § Meshes for viewing): each STL stored
 * with a case, a message or a plan gets a `mesh_views` row and a `mesh.view` job in the
 * transaction that stores its own row; the job converts it in a worker thread and stores the
 * copy under `views/`. Downloads keep serving the original.
 */

export const meshViewJob = 'mesh.view';

/** Larger originals are not converted (the viewer shows the original): a 300 MB binary STL is 6 million triangles. */
export const maxMeshViewSourceBytes = 300e6;

type Writer = Pick<Database, 'insert'>;

/**
 * Queues a viewing copy for each STL among the stored files (what the upload's content check
 * found to be one, file-checks.ts), in the caller's transaction; `jobs.kick()` after commit.
 * `doctorUserId`: the case's doctor, whose turn in the queue the copies take.
 */
export async function queueMeshViews(
  tx: Writer,
  jobs: JobQueue,
  files: { contentType: string; storageKey: string }[],
  doctorUserId: number | null,
): Promise<void> {
  const sourceKeys = files.filter((file) => file.contentType === contentTypeOf.stl).map((file) => file.storageKey);
  if (sourceKeys.length === 0) return;
  await tx.insert(meshViews).values(sourceKeys.map((sourceKey) => ({ sourceKey })));
  for (const sourceKey of sourceKeys) await jobs.enqueue(tx, meshViewJob, { sourceKey }, doctorUserId);
}

/** Where a source's copy is stored: beside no original, so the orphan sweep can tell them apart. */
export const viewKeyOf = (sourceKey: string) => `views/${sourceKey}.glb`;

/** A stored STL, whole, for a conversion. */
export const readStoredStl = async (storage: Storage, key: string) =>
  new Uint8Array(await buffer(await storage.read(key)));

/** Why no copy of `sourceKey` could be made (the viewer then shows the original, and says so); in the caller's transaction when given one. */
export async function recordMeshViewFailed(db: Pick<Database, 'update'>, sourceKey: string, reason: string) {
  await db
    .update(meshViews)
    .set({ state: 'failed', error: reason, finishedAt: new Date() })
    .where(eq(meshViews.sourceKey, sourceKey));
}

/** Stores a copy made of `sourceKey` at `viewKey`, then records it ready. */
export async function storeMeshView(
  deps: { db: Database; storage: Storage },
  sourceKey: string,
  viewKey: string,
  view: { glb: Uint8Array; triangles: number },
) {
  await deps.storage.put(
    viewKey,
    Buffer.from(view.glb.buffer, view.glb.byteOffset, view.glb.byteLength),
    'model/gltf-binary',
  );
  await deps.db
    .update(meshViews)
    .set({
      state: 'ready',
      viewKey,
      viewBytes: view.glb.byteLength,
      triangles: view.triangles,
      error: null,
      finishedAt: new Date(),
    })
    .where(eq(meshViews.sourceKey, sourceKey));
}

/** Registers the job that makes viewing copies. */
export function handleMeshViewJobs(deps: {
  db: Database;
  storage: Storage;
  jobs: JobQueue;
  convert(stl: Uint8Array): Promise<ViewingDerivative>;
}): void {
  const fail = (sourceKey: string, reason: string) => recordMeshViewFailed(deps.db, sourceKey, reason);
  deps.jobs.handle(
    meshViewJob,
    async (payload, job) => {
      const sourceKey = String(payload.sourceKey);
      const stored = await deps.storage.stat(sourceKey);
      if (!stored) return fail(sourceKey, 'The original file is missing');
      if (stored.size > maxMeshViewSourceBytes) return fail(sourceKey, 'The file is too large for a viewing copy');
      await job.yieldToRequests();
      const stl = await readStoredStl(deps.storage, sourceKey);
      let view: ViewingDerivative;
      try {
        view = await deps.convert(stl);
      } catch (error) {
        // Not an STL the reader takes: trying again would change nothing.
        if (error instanceof AppError && error.status === 400) return fail(sourceKey, error.message);
        throw error;
      }
      await storeMeshView(deps, sourceKey, viewKeyOf(sourceKey), view);
    },
    { onGiveUp: (payload, reason) => fail(String(payload.sourceKey), reason) },
  );
}

/** The viewing copy of the original at `sourceKey`; 404 for a file that has none (not an STL). */
export async function findMeshView(db: Database, sourceKey: string) {
  const [view] = await db.select().from(meshViews).where(eq(meshViews.sourceKey, sourceKey));
  if (!view) throw notFound('Viewing copy');
  return view;
}
