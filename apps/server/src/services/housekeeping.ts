import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseConnection } from '../db/client.ts';
import { LocalStorage } from '../storage/local-storage.ts';
import type { Storage } from '../storage/storage.ts';
import { sweepOrphanedCaseFiles } from './cases/sweep-orphaned-files.ts';
import { sweepOrphanedPlanFiles } from './plans/sweep-orphaned-plan-files.ts';
import { sweepOrphanedProgressFiles } from './plans/sweep-orphaned-progress-files.ts';
import { deleteDeadSessions } from './sessions.ts';
import { uploadsFolder } from './uploads/upload-store.ts';
import { sweepExpiredUploads, uploadLifetimeSeconds } from './uploads/uploads.ts';

/** What one sweep removed; `null` for a part that failed (logged, the rest still ran). */
export interface SweepCounts {
  caseFiles: number | null;
  planFiles: number | null;
  progressFiles: number | null;
  expiredUploads: number | null;
  unfinishedWrites: number | null;
  deadSessions: number | null;
}

/** Folders whose files are committed after their bytes: a killed upload leaves files, or S3 parts, there. */
const orphanFolders = ['cases', 'messages', 'plans', 'progress'];

interface HousekeepingDeps {
  database: DatabaseConnection;
  storage: Storage;
  log: FastifyBaseLogger;
}

/**
 * Everything a killed upload can leave: stored files no row refers to (older than
 * `graceSeconds`), unfinished S3 multipart uploads under the same folders (begun before the
 * same grace), and resumable uploads no case used within their 24 hours (with their own
 * unfinished parts); and sessions whose tokens are refused anyway (expired, or from an earlier
 * token version). Each part is housekeeping: its failure is logged, the others still run.
 */
export async function sweepLeftovers(deps: HousekeepingDeps, options: { graceSeconds: number }): Promise<SweepCounts> {
  const { db } = deps.database;
  const attempt = async (what: string, work: () => Promise<number>): Promise<number | null> => {
    try {
      return await work();
    } catch (error) {
      deps.log.warn({ err: error }, `${what} could not be swept`);
      return null;
    }
  };
  const graceStart = new Date(Date.now() - options.graceSeconds * 1000);
  const uploadsStart = new Date(Date.now() - uploadLifetimeSeconds * 1000);
  return {
    caseFiles: await attempt('orphaned case files', () =>
      sweepOrphanedCaseFiles({ db, storage: deps.storage }, options),
    ),
    planFiles: await attempt('orphaned plan stage files', () =>
      sweepOrphanedPlanFiles({ db, storage: deps.storage }, options),
    ),
    progressFiles: await attempt('orphaned progress scan files', () =>
      sweepOrphanedProgressFiles({ db, storage: deps.storage }, options),
    ),
    expiredUploads: await attempt('expired uploads', () => sweepExpiredUploads({ db, storage: deps.storage })),
    unfinishedWrites: await attempt('unfinished multipart uploads', async () => {
      const { abortUnfinishedWrites } = deps.storage;
      if (!abortUnfinishedWrites) return 0;
      let aborted = 0;
      for (const folder of orphanFolders) aborted += await abortUnfinishedWrites.call(deps.storage, folder, graceStart);
      // A resumable upload may be resumed for 24 hours, by any process: its parts are kept as long.
      aborted += await abortUnfinishedWrites.call(deps.storage, uploadsFolder, uploadsStart);
      return aborted;
    }),
    deadSessions: await attempt('dead sessions', () => deleteDeadSessions(db)),
  };
}

/**
 * The sweep at start and then every `intervalSeconds`, on one process at a time (a
 * PostgreSQL advisory lock; a process that finds it taken skips that round). On PGlite with
 * files in DATA_DIR, nothing but this process can be writing at start (PGlite's data is its
 * own), so the first sweep takes every orphan whatever its age; later ones keep the grace,
 * since this process's own uploads are then in flight.
 */
export function startHousekeeping(
  deps: HousekeepingDeps,
  options: { graceSeconds: number; intervalSeconds: number },
): { firstSweep: Promise<SweepCounts | undefined>; stop(): void } {
  const isAloneAtStart = deps.database.driver === 'pglite' && deps.storage instanceof LocalStorage;
  let running: Promise<SweepCounts | undefined> | undefined;
  const sweep = (graceSeconds: number) => {
    // A round still running (a large bucket) is not started twice in one process.
    running ??= deps.database
      .tryWithHousekeepingLock(() => sweepLeftovers(deps, { graceSeconds }))
      .then(
        (counts) => {
          if (counts) deps.log.info({ swept: counts, graceSeconds }, 'leftovers swept');
          return counts;
        },
        (error: unknown) => {
          deps.log.warn({ err: error }, 'leftovers could not be swept');
          return undefined;
        },
      )
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const firstSweep = sweep(isAloneAtStart ? 0 : options.graceSeconds);
  const timer = setInterval(() => void sweep(options.graceSeconds), options.intervalSeconds * 1000);
  timer.unref();
  return { firstSweep, stop: () => clearInterval(timer) };
}
