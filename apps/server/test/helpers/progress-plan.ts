/**
 * A generated plan arch read the way the portal reads an uploaded one (plan-view.ts and
 * tooth-movements.ts), ready for progress-fit.ts: stage 0's shells, every stage's motions,
 * and each tooth's number and axes.
 */
import { planBase, planStageMotion } from '../../src/meshes/plan-view.ts';
import type { PlanArchForFit } from '../../src/meshes/progress-fit.ts';
import { toothAxesOf } from '../../src/meshes/tooth-movements.ts';
import { planArchStages, type Arch, type PlanOptions } from './dental-meshes.ts';

export function planArchForFit(arch: Arch, options: PlanOptions = {}): PlanArchForFit {
  const [first, ...rest] = [...planArchStages(arch, options)];
  const base = planBase(first!);
  const stageMotions = rest.map((stl) => planStageMotion(stl, base).motions);
  const teeth = toothAxesOf(arch, base);
  if ('unavailable' in teeth) throw new Error(teeth.unavailable);
  return { positions: base.positions, indices: base.indices, shellOf: base.shellOf, stageMotions, teeth };
}
