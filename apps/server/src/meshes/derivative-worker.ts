/**
 * The worker threads' side of derivative-pool.ts: piscina imports this file in each thread
 * and calls the export the pool names, once per task. A file of its own in dist/ too (build.ts).
 * What a task answers moves to the main thread rather than being copied.
 */
import { setPriority } from 'node:os';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { makeViewingDerivative } from './derivative.ts';
import { makePlanView, planBase as readPlanBase, planStageMotion as fitStage, type PlanBase } from './plan-view.ts';

// This thread alone runs below normal priority (Linux sets it per thread): requests and
// uploads on the event loop come first. Not the lowest (19): on a machine kept busy a
// small mesh's copy then took half a minute and more (docs/decisions/meshes.md § Meshes for viewing).
const conversionNice = 10;
setPriority(conversionNice);

type Moved = ReturnType<typeof move>;

const moving = (value: object, buffers: ArrayBufferLike[]): Moved =>
  move({ [transferableSymbol]: buffers, [valueSymbol]: value });

export async function convertStl(stl: Uint8Array): Promise<Moved> {
  const derivative = await makeViewingDerivative(stl);
  return moving(derivative, [derivative.glb.buffer]);
}

export function planBase(stl: Uint8Array): Moved {
  const base = readPlanBase(stl);
  return moving(base, [base.positions.buffer, base.indices.buffer, base.firstCorner.buffer, base.shellOf.buffer]);
}

export function planStageMotion({ stl, base }: { stl: Uint8Array; base: PlanBase }): Moved {
  const motion = fitStage(stl, base);
  return moving(motion, [motion.motions.buffer]);
}

export async function makePlanViewTask(task: { base: PlanBase; stageMotions: Float64Array[] }): Promise<Moved> {
  const { base, stageMotions } = task;
  const view = await makePlanView(base, stageMotions);
  return moving(view, [view.glb.buffer]);
}
