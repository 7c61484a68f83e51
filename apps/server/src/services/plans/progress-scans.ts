import {
  maxProgressScansPerCase,
  progressScanArch,
  renderServerMessage,
  summarizeProgress,
  type PlanArch,
  type PlanSummary,
  type ProgressScan,
  type ProgressScanArch,
  type ProgressScanListItem,
  type ServerMessageCode,
  type ServerMessageParams,
} from '@portal/contract';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { SignedInUser } from '../../auth/policy.ts';
import type { Database } from '../../db/client.ts';
import { cases, planStageFiles, progressScans, treatmentPlans } from '../../db/schema.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { AppError, coded, conflict, notFound } from '../../lib/errors.ts';
import type { DerivativePool } from '../../meshes/derivative-pool.ts';
import type { PlanArchForFit, ProgressFitOptions } from '../../meshes/progress-fit.ts';
import type { ProgressPlacement } from '../../meshes/progress-view.ts';
import { toothAxesOf } from '../../meshes/tooth-movements.ts';
import type { Storage } from '../../storage/storage.ts';
import type { VisibleCase } from '../cases/case-access.ts';
import { readLabSettings } from '../lab-settings.ts';
import { readStoredStl } from '../mesh-views.ts';
import type { MailOutbox } from '../../mail/outbox.ts';
import { finishProgressScan } from './progress-outcome.ts';
import { readPlanFitData, storePlanFitData } from './plan-fit-data.ts';

/**
 * Progress scans (docs/decisions/progress-scans.md): the request stores the scan and queues a
 * `progress.fit` job; the job reads the approved version's stages of each arch sent, builds
 * the plan for the fit in the mesh pool's threads (plan-view.ts) and fits the scan there
 * (progress-fit.ts), with the lab's off-track thresholds, then stores the result or why not.
 */

export const progressFitJob = 'progress.fit';

/** A scan over this many triangles is refused unread: 3M is twice a scanner's densest arch. */
export const maxProgressScanTriangles = 3_000_000;
/**
 * Larger files are refused unread, whatever they hold: an ASCII STL takes about 250 bytes a
 * triangle, so this is a million-triangle ASCII scan or six million binary ones (the thread
 * then refuses a binary one by the count in its header before reading its triangles).
 */
const maxProgressScanBytes = 300e6;

export const progressMessages = {
  noApprovedPlan: 'A progress scan is compared with the approved plan: this case has none yet',
};

export interface ApprovedPlan {
  planId: number;
  upperStages: number;
  lowerStages: number;
}

/** The case's approved version (the newest, should there be several), or 409. */
export async function findApprovedPlan(db: Database, caseId: number): Promise<ApprovedPlan> {
  const [plan] = await db
    .select({ planId: treatmentPlans.planId, summary: treatmentPlans.summary })
    .from(treatmentPlans)
    .where(and(eq(treatmentPlans.caseId, caseId), eq(treatmentPlans.state, 'approved')))
    .orderBy(desc(treatmentPlans.version))
    .limit(1);
  if (!plan) throw conflict(progressMessages.noApprovedPlan);
  const summary = plan.summary as PlanSummary;
  return { planId: plan.planId, upperStages: summary.upperStages, lowerStages: summary.lowerStages };
}

async function countScans(db: Pick<Database, 'select'>, caseId: number) {
  const [row] = await db.select({ scans: count() }).from(progressScans).where(eq(progressScans.caseId, caseId));
  return row?.scans ?? 0;
}

/** 409 when the case already keeps as many scans as it may (checked before the files are read, and again when stored). */
export async function assertRoomForScan(db: Pick<Database, 'select'>, caseId: number) {
  if ((await countScans(db, caseId)) >= maxProgressScansPerCase)
    throw coded(409, 'progressScansTooMany', { max: maxProgressScansPerCase });
}

export interface StoredScanFile {
  arch: PlanArch;
  storageKey: string;
  size: number;
}

/** Records the scan and queues its fit, the case's doctor's turn in the queue; `jobs.kick()` after. */
export async function createProgressScan(
  deps: { db: Database; jobs: JobQueue },
  user: SignedInUser,
  record: VisibleCase,
  plan: ApprovedPlan,
  stage: number,
  files: StoredScanFile[],
): Promise<{ progressScanId: number; state: 'queued' }> {
  const fileOf = (arch: PlanArch) => files.find((file) => file.arch === arch);
  const created = await deps.db.transaction(async (tx) => {
    // One sender at a time per case, so the bound holds.
    await tx.select({ caseId: cases.caseId }).from(cases).where(eq(cases.caseId, record.caseId)).for('update');
    await assertRoomForScan(tx, record.caseId);
    const [row] = await tx
      .insert(progressScans)
      .values({
        caseId: record.caseId,
        planId: plan.planId,
        stage,
        upperKey: fileOf('upper')?.storageKey,
        upperBytes: fileOf('upper')?.size,
        lowerKey: fileOf('lower')?.storageKey,
        lowerBytes: fileOf('lower')?.size,
        uploadedBy: user.userId,
      })
      .returning({ progressScanId: progressScans.progressScanId });
    await deps.jobs.enqueue(tx, progressFitJob, { progressScanId: row!.progressScanId }, record.doctorUserId);
    return row!;
  });
  deps.jobs.kick();
  return { progressScanId: created.progressScanId, state: 'queued' };
}

type ScanRow = typeof progressScans.$inferSelect;

const sentArches = (row: ScanRow): PlanArch[] =>
  (['upper', 'lower'] as const).filter((arch) => (arch === 'upper' ? row.upperKey : row.lowerKey) !== null);

function scanOf(row: ScanRow): ProgressScan {
  return {
    progressScanId: row.progressScanId,
    planId: row.planId,
    stage: row.stage,
    state: row.state,
    ...(row.reason !== null && { reason: row.reason }),
    ...(row.reasonCode !== null && { reasonCode: row.reasonCode, reasonParams: row.reasonParams ?? {} }),
    arches: progressScanArch.array().parse(row.arches ?? []),
    sent: sentArches(row),
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** The case's scans, newest first, each with its summary once done. */
export async function listProgressScans(db: Database, caseId: number): Promise<ProgressScanListItem[]> {
  const rows = await db
    .select()
    .from(progressScans)
    .where(eq(progressScans.caseId, caseId))
    .orderBy(desc(progressScans.createdAt), desc(progressScans.progressScanId));
  return rows.map((row) => {
    const { arches, ...scan } = scanOf(row);
    return { ...scan, summary: row.state === 'done' ? summarizeProgress(arches) : null };
  });
}

export async function readProgressScan(db: Database, caseId: number, progressScanId: number): Promise<ProgressScan> {
  const [row] = await db
    .select()
    .from(progressScans)
    .where(and(eq(progressScans.progressScanId, progressScanId), eq(progressScans.caseId, caseId)));
  if (!row) throw notFound('Progress scan');
  return scanOf(row);
}

/** Where an arch's viewing copy in the plan's frame is stored: beside its scan (`progress/` is no other sweep's). */
export const progressViewKeyOf = (scanKey: string) => `${scanKey}.view.glb`;

export const progressViewMessages = {
  notSent: 'This progress scan has no scan of that arch',
  notYet: 'The viewing copy is being made: it follows the fit by a few seconds',
  none: 'No viewing copy was made of this scan (the fit did not succeed, or the copy could not be made)',
};

/**
 * An arch's viewing copy in the plan's frame: its key and size, 404 for an arch not sent,
 * 409 while the fit runs or when it made none (a failed fit, a scan fitted before copies were made).
 */
export async function findProgressView(
  db: Database,
  progressScanId: number,
  arch: PlanArch,
): Promise<{ key: string; bytes: number }> {
  const [row] = await db.select().from(progressScans).where(eq(progressScans.progressScanId, progressScanId));
  if (!row || !sentArches(row).includes(arch)) throw new AppError(404, progressViewMessages.notSent);
  const key = arch === 'upper' ? row.upperViewKey : row.lowerViewKey;
  const bytes = arch === 'upper' ? row.upperViewBytes : row.lowerViewBytes;
  // Named with the result and sized once made: in between, it is being made.
  const isComing = row.state === 'queued' || row.state === 'running' || (key !== null && bytes === null);
  if (isComing) throw conflict(progressViewMessages.notYet);
  if (row.state !== 'done' || key === null || bytes === null) throw conflict(progressViewMessages.none);
  return { key, bytes };
}

/** Tells the case's doctor's side and the lab that a scan's state changed, after the commit (plugins/events.ts). */
export type PublishProgress = (change: {
  caseId: number;
  progressScanId: number;
  state: 'queued' | 'done' | 'failed';
}) => Promise<void>;

/**
 * Thrown by the job for a scan that cannot be fitted: trying again would change nothing. Its
 * reason by code and values, as a refusal's, so that each reader reads it in their language.
 */
class Refusal extends Error {
  readonly code: ServerMessageCode;
  readonly params: ServerMessageParams;

  constructor(code: ServerMessageCode, params: ServerMessageParams) {
    super(renderServerMessage(code, params));
    this.code = code;
    this.params = params;
  }
}

/** Registers the job that fits progress scans; the meshes are read and fitted in `meshes`' worker threads. */
export function handleProgressFitJobs(deps: {
  db: Database;
  storage: Storage;
  jobs: JobQueue;
  meshes: Pick<DerivativePool, 'planBase' | 'planStageMotion' | 'fitProgress' | 'progressView'>;
  publish: PublishProgress;
  outbox: MailOutbox;
  publicUrl: string;
}): void {
  const { db, storage, jobs, meshes, publish } = deps;
  const failed = async (
    row: { caseId: number; progressScanId: number; stage: number },
    { message, code, params }: { message: string; code?: ServerMessageCode; params?: ServerMessageParams },
  ) => {
    await finishProgressScan(deps, row, { state: 'failed', reason: message, code, params });
    await publish({ caseId: row.caseId, progressScanId: row.progressScanId, state: 'failed' });
  };

  /**
   * An arch's viewing copy in the plan's frame (meshes/progress-view.ts), stored beside its scan
   * and its size recorded; one that cannot be made is recorded as none (its key cleared), the
   * result stays done.
   */
  async function makeView(
    progressScanId: number,
    fit: { arch: PlanArch; key: string; plan: PlanArchForFit; toPlan: ProgressPlacement },
    options: ProgressFitOptions,
  ) {
    const viewKey = progressViewKeyOf(fit.key);
    const columns =
      fit.arch === 'upper'
        ? ({ key: 'upperViewKey', bytes: 'upperViewBytes' } as const)
        : ({ key: 'lowerViewKey', bytes: 'lowerViewBytes' } as const);
    let bytes: number | null = null;
    try {
      const view = await meshes.progressView(
        fit.plan,
        await readStoredStl(storage, fit.key),
        fit.toPlan,
        options,
        maxProgressScanTriangles,
      );
      if (!('refused' in view)) {
        // Under the same key each time: a copy made again is written in place.
        await storage.put(
          viewKey,
          Buffer.from(view.glb.buffer, view.glb.byteOffset, view.glb.byteLength),
          'model/gltf-binary',
        );
        bytes = view.glb.byteLength;
      }
    } catch {
      bytes = null;
    }
    await db
      .update(progressScans)
      .set(bytes === null ? { [columns.key]: null } : { [columns.bytes]: bytes })
      .where(eq(progressScans.progressScanId, progressScanId));
  }

  /** The approved version's arch as the fit takes it: stage 0's shells, each later stage's motions, each tooth's axes. */
  async function planArch(planId: number, arch: PlanArch, yieldToRequests: () => Promise<void>) {
    const files = await db
      .select({ storageKey: planStageFiles.storageKey })
      .from(planStageFiles)
      .where(and(eq(planStageFiles.planId, planId), eq(planStageFiles.arch, arch)))
      .orderBy(asc(planStageFiles.stage));
    if (files.length < 2) throw new Refusal('progressPlanHasNoStages', { arch });
    // As the plan's processing stored it (plan-fit-data.ts); a plan processed before has its
    // stages read here, once, and stored for the next scan.
    let base = await readPlanFitData(storage, planId, arch, files.length - 1);
    if (!base) {
      const read = await meshes.planBase(await readStoredStl(storage, files[0]!.storageKey));
      const stageMotions: Float64Array[] = [];
      for (const file of files.slice(1)) {
        await yieldToRequests();
        stageMotions.push((await meshes.planStageMotion(await readStoredStl(storage, file.storageKey), read)).motions);
      }
      await storePlanFitData(storage, planId, arch, read, stageMotions);
      base = { ...read, stageMotions };
    }
    const teeth = toothAxesOf(arch, base);
    if ('unavailable' in teeth) throw new Refusal('progressPlanNotMeasurable', { arch, reason: teeth.unavailable });
    const plan: PlanArchForFit = {
      positions: base.positions,
      indices: base.indices,
      shellOf: base.shellOf,
      stageMotions: base.stageMotions,
      teeth,
    };
    return plan;
  }

  const fitOptions = async (stage: number): Promise<ProgressFitOptions> => {
    const { offTrackThresholds } = await readLabSettings(db);
    return { stage, offTrackMm: offTrackThresholds.offsetMm, offTrackDeg: offTrackThresholds.angleDeg };
  };

  /**
   * A done scan whose job stopped after its answer and before its viewing copies (the process
   * died; the job's lease ran out and it is claimed again): each copy still named without a size
   * is made now, from the same fit made again, so no overlay stays "being made".
   */
  async function makeMissingViews(row: typeof progressScans.$inferSelect, yieldToRequests: () => Promise<void>) {
    const pending = sentArches(row).filter((arch) =>
      arch === 'upper'
        ? row.upperViewKey !== null && row.upperViewBytes === null
        : row.lowerViewKey !== null && row.lowerViewBytes === null,
    );
    const options = await fitOptions(row.stage);
    for (const arch of pending) {
      const key = (arch === 'upper' ? row.upperKey : row.lowerKey)!;
      await yieldToRequests();
      const plan = await planArch(row.planId, arch, yieldToRequests);
      const fitted = await meshes.fitProgress(
        plan,
        await readStoredStl(storage, key),
        options,
        maxProgressScanTriangles,
      );
      if ('refused' in fitted) {
        await db
          .update(progressScans)
          .set(arch === 'upper' ? { upperViewKey: null } : { lowerViewKey: null })
          .where(eq(progressScans.progressScanId, row.progressScanId));
        continue;
      }
      await makeView(row.progressScanId, { arch, key, plan, toPlan: fitted.toPlan }, options);
    }
  }

  jobs.handle(
    progressFitJob,
    async (payload, job) => {
      const progressScanId = Number(payload.progressScanId);
      const [row] = await db.select().from(progressScans).where(eq(progressScans.progressScanId, progressScanId));
      if (!row || row.state === 'failed') return;
      if (row.state === 'done') return makeMissingViews(row, () => job.yieldToRequests());
      await db.update(progressScans).set({ state: 'running' }).where(eq(progressScans.progressScanId, progressScanId));
      const options = await fitOptions(row.stage);
      const arches: ProgressScanArch[] = [];
      // Each fitted arch, for its viewing copy once the answer is stored.
      const placed: { arch: PlanArch; key: string; plan: PlanArchForFit; toPlan: ProgressPlacement }[] = [];
      try {
        for (const arch of sentArches(row)) {
          const key = (arch === 'upper' ? row.upperKey : row.lowerKey)!;
          const bytes = (arch === 'upper' ? row.upperBytes : row.lowerBytes) ?? 0;
          if (bytes > maxProgressScanBytes) {
            throw new Refusal('progressScanTooLarge', { arch, megabytes: maxProgressScanBytes / 1e6 });
          }
          await job.yieldToRequests();
          const plan = await planArch(row.planId, arch, () => job.yieldToRequests());
          if (options.stage > plan.stageMotions.length) {
            throw new Refusal('progressPlanEndsAtStage', { arch, stages: plan.stageMotions.length });
          }
          await job.yieldToRequests();
          const fitted = await meshes.fitProgress(
            plan,
            await readStoredStl(storage, key),
            options,
            maxProgressScanTriangles,
          );
          if ('refused' in fitted) throw new Refusal(fitted.refused.code, { arch, ...fitted.refused.params });
          const { toPlan, ...result } = fitted;
          arches.push({ arch, ...result });
          placed.push({ arch, key, plan, toPlan });
        }
      } catch (error) {
        // A refusal, or a file the worker could not read (400 from the pool): the scan fails with its reason.
        if (error instanceof Refusal || (error instanceof AppError && error.status === 400)) return failed(row, error);
        throw error;
      }
      // The result, the case's off-track mark and the lab's mail in one transaction
      // (progress-outcome.ts); each arch's viewing copy named there, its size once it is made.
      const keyOf = (arch: PlanArch) => placed.find((fit) => fit.arch === arch)?.key;
      const viewKeyOf = (arch: PlanArch) => (keyOf(arch) ? progressViewKeyOf(keyOf(arch)!) : null);
      await finishProgressScan(deps, row, {
        state: 'done',
        arches,
        views: {
          upperViewKey: viewKeyOf('upper'),
          upperViewBytes: null,
          lowerViewKey: viewKeyOf('lower'),
          lowerViewBytes: null,
        },
      });
      await publish({ caseId: row.caseId, progressScanId, state: 'done' });
      // The copies after the answer: the doctor reads the result without waiting for them (the
      // overlay's copy took 1.0-1.8 s an arch beside a 3-5 s fit, docs/benchmarks.md).
      for (const fit of placed) {
        await job.yieldToRequests();
        await makeView(progressScanId, fit, options);
      }
    },
    {
      onGiveUp: async (payload, reason) => {
        const progressScanId = Number(payload.progressScanId);
        const [row] = await db
          .select({ caseId: progressScans.caseId, stage: progressScans.stage })
          .from(progressScans)
          .where(eq(progressScans.progressScanId, progressScanId));
        const code = 'progressFitNotCompleted';
        if (row)
          await failed(
            { ...row, progressScanId },
            { message: renderServerMessage(code, { reason }), code, params: { reason } },
          );
      },
    },
  );
}
