import type { PlanArch } from '@portal/contract';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { meshViews, planStageFiles } from '../../db/schema.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { AppError } from '../../lib/errors.ts';
import type { DerivativePool } from '../../meshes/derivative-pool.ts';
import { toothMovements } from '../../meshes/tooth-movements.ts';
import type { Storage } from '../../storage/storage.ts';
import { contentTypeOf } from '../cases/file-checks.ts';
import {
  maxMeshViewSourceBytes,
  queueMeshViews,
  readStoredStl,
  recordMeshViewFailed,
  storeMeshView,
} from '../mesh-views.ts';
import { storePlanFitData } from './plan-fit-data.ts';
import { savePlanMovements } from './plan-movements.ts';

/**
 * The viewer's copy of a plan version's arch (docs/decisions/meshes.md § Meshes for viewing): stage
 * 0's teeth and each later stage's motion of each tooth in one GLB (meshes/plan-view.ts),
 * made by a background job queued with the version. Its state is a `mesh_views` row keyed
 * by `planViewSource`; a plan whose stages are not the same teeth moved gets a copy per
 * stage file instead (the same job queues them), and the viewer loads those. The same job
 * measures each tooth's movement (plan-movements.ts) from the motions it fits.
 */

export const planViewJob = 'plan.view';

/** The `mesh_views` key of a plan arch's copy: a name, not a stored file (the arch is many files). */
export const planViewSource = (planId: number, arch: PlanArch) => `plan:${planId}:${arch}`;

const viewKeyOf = (planId: number, arch: PlanArch) => `views/plans/${planId}-${arch}.glb`;

type Writer = Pick<Database, 'insert'>;

/**
 * Queues the copy of each arch that has stages, in the caller's transaction; `jobs.kick()`
 * after commit. `doctorUserId`: the case's doctor, whose turn in the queue they take.
 */
export async function queuePlanViews(
  tx: Writer,
  jobs: JobQueue,
  doctorUserId: number,
  planId: number,
  arches: PlanArch[],
): Promise<void> {
  if (arches.length === 0) return;
  await tx.insert(meshViews).values(arches.map((arch) => ({ sourceKey: planViewSource(planId, arch) })));
  for (const arch of arches) await jobs.enqueue(tx, planViewJob, { planId, arch }, doctorUserId);
}

/** The copy of each arch of a plan version: null for an arch without stages (none was queued). */
export async function findPlanViews(db: Database, planId: number) {
  const views = await db
    .select()
    .from(meshViews)
    .where(inArray(meshViews.sourceKey, [planViewSource(planId, 'upper'), planViewSource(planId, 'lower')]));
  const viewOf = (arch: PlanArch) => views.find((view) => view.sourceKey === planViewSource(planId, arch)) ?? null;
  return { upper: viewOf('upper'), lower: viewOf('lower') };
}

/** Registers the job that makes plan copies; its conversions run in `meshes`' worker threads. */
export function handlePlanViewJobs(deps: {
  db: Database;
  storage: Storage;
  jobs: JobQueue;
  meshes: Pick<DerivativePool, 'planBase' | 'planStageMotion' | 'makePlanView'>;
}): void {
  const { db, storage, jobs, meshes } = deps;

  jobs.handle(
    planViewJob,
    async (payload, job) => {
      const planId = Number(payload.planId);
      const arch = payload.arch as PlanArch;
      const sourceKey = planViewSource(planId, arch);
      const files = await db
        .select({ storageKey: planStageFiles.storageKey, size: planStageFiles.fileSize })
        .from(planStageFiles)
        .where(and(eq(planStageFiles.planId, planId), eq(planStageFiles.arch, arch)))
        .orderBy(asc(planStageFiles.stage));
      const tooLarge = files.some((file) => file.size > maxMeshViewSourceBytes);
      if (files.length === 0 || tooLarge) {
        const error = tooLarge ? 'A stage is too large for a viewing copy' : 'The plan has no stages';
        return recordMeshViewFailed(db, sourceKey, error);
      }
      // One stage in memory at a time: a 40-stage arch of 480k triangles is a gigabyte of STL.
      const read = (key: string) => readStoredStl(storage, key);
      try {
        await job.yieldToRequests();
        const base = await meshes.planBase(await read(files[0]!.storageKey));
        const motions: Float64Array[] = [];
        for (const file of files.slice(1)) {
          await job.yieldToRequests();
          motions.push((await meshes.planStageMotion(await read(file.storageKey), base)).motions);
        }
        // A few milliseconds for 16 teeth and 40 stages: here on the job's own turn, not a thread's.
        await savePlanMovements(db, planId, arch, toothMovements(arch, base, motions));
        // What a progress fit reads of the arch, so that it need not read every stage again (plan-fit-data.ts).
        await storePlanFitData(storage, planId, arch, base, motions);
        const view = await meshes.makePlanView(base, motions);
        await storeMeshView(deps, sourceKey, viewKeyOf(planId, arch), view);
      } catch (error) {
        if (!(error instanceof AppError && error.status === 400)) throw error;
        // Not the same teeth moved (or not STL): each stage gets a copy of its own; trying again would change nothing.
        await db.transaction(async (tx) => {
          await recordMeshViewFailed(tx, sourceKey, error.message);
          await savePlanMovements(tx, planId, arch, {
            unavailable: `movements are measured when each tooth is a separate shell moved rigidly from stage to stage; here ${error.message}`,
          });
          const queued = await tx
            .select({ key: meshViews.sourceKey })
            .from(meshViews)
            .where(
              inArray(
                meshViews.sourceKey,
                files.map((file) => file.storageKey),
              ),
            );
          const done = new Set(queued.map((row) => row.key));
          // Every stage file passed the upload's STL check.
          const stageFiles = files.filter((file) => !done.has(file.storageKey));
          await queueMeshViews(
            tx,
            jobs,
            stageFiles.map((file) => ({ contentType: contentTypeOf.stl, storageKey: file.storageKey })),
            job.ownerUserId,
          );
        });
        jobs.kick();
      }
    },
    {
      onGiveUp: (payload, reason) =>
        recordMeshViewFailed(db, planViewSource(Number(payload.planId), payload.arch as PlanArch), reason),
    },
  );
}
