/**
 * The worker threads' side of derivative-pool.ts: piscina imports this file in each thread
 * and calls the export the pool names, once per task. A file of its own in dist/ too (build.ts).
 * What a task answers moves to the main thread rather than being copied.
 */
import { setPriority } from 'node:os';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { AppError, codedAcrossThreads } from '../lib/errors.ts';
import { makeViewingDerivative } from './derivative.ts';
import { makePlanView, planBase as readPlanBase, planStageMotion as fitStage, type PlanBase } from './plan-view.ts';
import {
  fitProgressScan,
  type ArchProgress,
  type FitRefusal,
  type PlanArchForFit,
  type ProgressFitOptions,
} from './progress-fit.ts';
import { makeProgressView, type ProgressPlacement } from './progress-view.ts';
import { invalidStl, readStl } from './stl.ts';
import { weldVertices, type IndexedMesh } from './weld.ts';

// This thread alone runs below normal priority (Linux sets it per thread): requests and
// uploads on the event loop come first. Not the lowest (19): on a machine kept busy a
// small mesh's copy then took half a minute and more (docs/decisions/meshes.md § Meshes for viewing).
const conversionNice = 10;
setPriority(conversionNice);

type Moved = ReturnType<typeof move>;

const moving = (value: object, buffers: ArrayBufferLike[]): Moved =>
  move({ [transferableSymbol]: buffers, [valueSymbol]: value });

/**
 * A task whose coded refusal ("not a valid STL file: …") crosses to the pool with its code and
 * values (lib/errors.ts, `codedAcrossThreads`); it stays synchronous when it was.
 */
function coding<T, R>(task: (input: T) => R): (input: T) => R {
  const carry = (error: unknown): never => {
    throw error instanceof AppError && error.code ? codedAcrossThreads(error) : error;
  };
  return (input) => {
    try {
      const result = task(input);
      return (result instanceof Promise ? result.catch(carry) : result) as R;
    } catch (error) {
      return carry(error);
    }
  };
}

export const convertStl: (stl: Uint8Array) => Promise<Moved> = coding(async (stl) => {
  const derivative = await makeViewingDerivative(stl);
  return moving(derivative, [derivative.glb.buffer]);
});

export const planBase: (stl: Uint8Array) => Moved = coding((stl) => {
  const base = readPlanBase(stl);
  return moving(base, [base.positions.buffer, base.indices.buffer, base.firstCorner.buffer, base.shellOf.buffer]);
});

export const planStageMotion: (task: { stl: Uint8Array; base: PlanBase }) => Moved = coding(({ stl, base }) => {
  const motion = fitStage(stl, base);
  return moving(motion, [motion.motions.buffer]);
});

export const makePlanViewTask: (task: { base: PlanBase; stageMotions: Float64Array[] }) => Promise<Moved> = coding(
  async (task) => {
    const { base, stageMotions } = task;
    const view = await makePlanView(base, stageMotions);
    return moving(view, [view.glb.buffer]);
  },
);

interface FitTask {
  plan: PlanArchForFit;
  stl: Uint8Array;
  options: ProgressFitOptions;
  maxTriangles: number;
}

/** The scan's mesh, or why it is refused: above `maxTriangles` before any fitting. */
function scanOfTask(task: FitTask): IndexedMesh | FitRefusal {
  const tooMany = (triangles: number) => ({
    refused: {
      code: 'progressScanTooManyTriangles' as const,
      params: { triangles, maxTriangles: task.maxTriangles },
    },
  });
  // A binary STL says its count in its header: refused before its triangles are read.
  const { stl } = task;
  const declared = stl.byteLength >= 84 ? new DataView(stl.buffer, stl.byteOffset + 80, 4).getUint32(0, true) : 0;
  if (stl.byteLength === 84 + 50 * declared && declared > task.maxTriangles) return tooMany(declared);
  const { positions } = readStl(stl);
  const triangles = positions.length / 9;
  if (triangles === 0) throw invalidStl('stlNoTriangles');
  if (triangles > task.maxTriangles) return tooMany(triangles);
  if (!positions.every(Number.isFinite)) throw invalidStl('stlCoordinateNotFinite');
  return weldVertices(positions);
}

/** A progress scan's arch fitted to its plan (progress-fit.ts); refused above `maxTriangles` before any fitting. */
export const fitProgressTask: (task: FitTask) => ArchProgress = coding((task) => {
  const scan = scanOfTask(task);
  return 'refused' in scan ? scan : fitProgressScan(task.plan, scan, task.options);
});

/**
 * A fitted scan's viewing copy in the plan's frame (progress-view.ts), in the fit's pool and
 * within its bounds, once the fit's answer is stored: the scan is read again (a fraction of the
 * fit's time) rather than the answer waiting for the copy.
 */
export const progressViewTask: (task: FitTask & { toPlan: ProgressPlacement }) => Promise<Moved | FitRefusal> = coding(
  async (task) => {
    const scan = scanOfTask(task);
    if ('refused' in scan) return scan;
    const view = await makeProgressView(task.plan, scan, task.toPlan, task.options);
    return moving(view, [view.glb.buffer]);
  },
);
