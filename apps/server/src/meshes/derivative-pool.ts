import path from 'node:path';
import { Piscina } from 'piscina';
import { AppError, coded, codedFromThread } from '../lib/errors.ts';
import type { ViewingDerivative } from './derivative.ts';
import type { PlanBase, PlanView, StageMotion } from './plan-view.ts';
import type { ArchProgress, FitRefusal, PlanArchForFit, ProgressFitOptions } from './progress-fit.ts';
import type { ProgressPlacement, ProgressView } from './progress-view.ts';

export interface DerivativePoolOptions {
  /** Worker threads converting at once (default 1: a conversion keeps a core busy for seconds). */
  threads?: number;
  /** STLs that may wait for a thread; one more is refused with 503 (default 16). */
  queue?: number;
  /**
   * How long one conversion may run before its thread is ended and the mesh refused
   * (default 5 minutes; a 1.5M-triangle scan takes seconds): one file made to be slow
   * must not hold every later copy back.
   */
  timeLimitMs?: number;
  /** The JavaScript heap a progress fit's thread may take before it is ended and the scan refused (default 512 MB). */
  fitHeapMb?: number;
}

export interface DerivativePool {
  /**
   * The viewing derivative of an STL, made in a worker thread. When `stl` is the whole of
   * its ArrayBuffer (as fs.readFile's is), that buffer moves to the worker and `stl` is left
   * empty; otherwise its bytes are copied.
   */
  convert(stl: Uint8Array): Promise<ViewingDerivative>;
  /** A plan arch's stage 0, read for the stages after it (plan-view.ts); `stl` moves as in convert. */
  planBase(stl: Uint8Array): Promise<PlanBase>;
  /** Where a later stage puts the shells of `base` (copied to the thread; `stl` moves). */
  planStageMotion(stl: Uint8Array, base: PlanBase): Promise<StageMotion>;
  /** The arch's GLB from stage 0 and each later stage's motions. */
  makePlanView(base: PlanBase, stageMotions: Float64Array[]): Promise<PlanView>;
  /**
   * A progress scan's arch fitted to its plan (progress-fit.ts), in a thread of its own pool
   * whose heap is bounded (`fitHeapMb`); a scan over `maxTriangles` is refused unread.
   */
  fitProgress(
    plan: PlanArchForFit,
    stl: Uint8Array,
    options: ProgressFitOptions,
    maxTriangles: number,
  ): Promise<ArchProgress>;
  /** A fitted scan's viewing copy in the plan's frame (progress-view.ts), in the fits' pool, within their bounds. */
  progressView(
    plan: PlanArchForFit,
    stl: Uint8Array,
    toPlan: ProgressPlacement,
    options: ProgressFitOptions,
    maxTriangles: number,
  ): Promise<ProgressView | FitRefusal>;
  /** Conversions running in a thread now, and waiting for one. */
  readonly converting: number;
  readonly waiting: number;
  /** Lets running conversions finish, refuses new ones and ends the threads. */
  close(): Promise<void>;
}

/**
 * The worker's entry beside this module, with this module's extension: from the TypeScript
 * source (tests, `npm run dev`) src/meshes/derivative-worker.ts, which Node runs by stripping
 * its types; from the build (`npm start`), where this module is bundled into a file directly
 * in dist/, dist/derivative-worker.js, an entry point of its own in build.ts.
 */
const workerFile = path.join(import.meta.dirname, `derivative-worker${path.extname(import.meta.filename)}`);

/** A thread idle this long ends, giving back the memory a large mesh made it take. */
const idleThreadMs = 30_000;

/**
 * Converts STLs to viewing derivatives off the event loop, in at most `threads`
 * node:worker_threads. piscina (maintained under the Node.js organisation) starts the
 * threads on demand, ends idle ones, replaces one that dies, carries errors back and moves
 * buffers instead of copying them. The queue and its bound are kept here, handing piscina
 * no more tasks than it has threads, so that the counts of converting and waiting STLs are
 * exact at every moment.
 */
export function createDerivativePool({
  threads = 1,
  queue = 16,
  timeLimitMs = 5 * 60_000,
  fitHeapMb = 512,
}: DerivativePoolOptions = {}): DerivativePool {
  const piscina = new Piscina({
    filename: workerFile,
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: idleThreadMs,
  });
  // Fits alone have a heap bound: a conversion of a 1.5M-triangle scan needs more than a fit may take.
  const fits = new Piscina({
    filename: workerFile,
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: idleThreadMs,
    resourceLimits: { maxOldGenerationSizeMb: fitHeapMb, maxYoungGenerationSizeMb: 64 },
  });
  let converting = 0;
  const waiting: (() => void)[] = [];

  async function takeThread() {
    if (converting < threads) {
      converting++;
      return;
    }
    if (waiting.length >= queue) throw new AppError(503, 'Too many meshes are being converted; try again in a minute.');
    // The conversion that finishes hands its thread over (releaseThread): `converting` stays.
    await new Promise<void>((resolve) => waiting.push(resolve));
  }

  function releaseThread() {
    const next = waiting.shift();
    if (next) next();
    else converting--;
  }

  /** Runs the worker's export `name` on `task` once a thread is free; `moved` buffers go to the thread rather than being copied. */
  async function run<T>(name: string, task: unknown, moved: ArrayBuffer[] = [], pool = piscina): Promise<T> {
    await takeThread();
    const deadline = AbortSignal.timeout(timeLimitMs);
    try {
      // piscina ends the thread of a task aborted while it runs, and starts another.
      return (await pool.run(task, { name, transferList: moved, signal: deadline })) as T;
    } catch (error) {
      if (deadline.aborted) {
        throw coded(400, 'meshTimeLimit', { seconds: timeLimitMs / 1000 });
      }
      if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw coded(400, 'meshMemoryLimit', { megabytes: fitHeapMb });
      }
      // The worker's errors arrive as plain Errors; its refusals ("not a valid STL file: …") carry their code.
      throw codedFromThread(error) ?? error;
    } finally {
      releaseThread();
    }
  }

  /** The STL's own buffer when it is the whole of it, else a copy (`new Uint8Array(view)`; a Buffer's slice() would be a view again). */
  function movable(stl: Uint8Array): Uint8Array<ArrayBuffer> {
    const isWholeBuffer =
      stl.buffer instanceof ArrayBuffer && stl.byteOffset === 0 && stl.byteLength === stl.buffer.byteLength;
    return isWholeBuffer ? (stl as Uint8Array<ArrayBuffer>) : new Uint8Array(stl);
  }

  return {
    convert(stl) {
      const owned = movable(stl);
      return run('convertStl', owned, [owned.buffer]);
    },
    planBase(stl) {
      const owned = movable(stl);
      return run('planBase', owned, [owned.buffer]);
    },
    planStageMotion(stl, base) {
      const owned = movable(stl);
      return run('planStageMotion', { stl: owned, base }, [owned.buffer]);
    },
    makePlanView(base, stageMotions) {
      return run('makePlanViewTask', { base, stageMotions });
    },
    fitProgress(plan, stl, options, maxTriangles) {
      const owned = movable(stl);
      return run('fitProgressTask', { plan, stl: owned, options, maxTriangles }, [owned.buffer], fits);
    },
    progressView(plan, stl, toPlan, options, maxTriangles) {
      const owned = movable(stl);
      return run('progressViewTask', { plan, stl: owned, toPlan, options, maxTriangles }, [owned.buffer], fits);
    },
    get converting() {
      return converting;
    },
    get waiting() {
      return waiting.length;
    },
    close: async () => {
      await Promise.all([piscina.close(), fits.close()]);
    },
  };
}
