import { planArches, type PlanArch, type PlanMovementsAnswer } from '@portal/contract';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { planMovements } from '../../db/schema.ts';
import type { ArchMovements, MeasuredMovement } from '../../meshes/tooth-movements.ts';
import { findPlanViews } from './plan-views.ts';

/**
 * A plan version's tooth movements (docs/decisions/plans.md § Tooth movements): measured per arch
 * by the job that makes the arch's viewing copy (plan-views.ts), read here with the lab's
 * per-stage limit of the moment.
 */

export interface StepLimits {
  stepMm: number;
  stepDeg: number;
}

/** Records an arch's movements, or why it has none; a job run again replaces its earlier row. */
export async function savePlanMovements(
  db: Pick<Database, 'insert'>,
  planId: number,
  arch: PlanArch,
  measured: ArchMovements,
): Promise<void> {
  const values =
    'teeth' in measured
      ? { teeth: measured.teeth, unavailable: null }
      : { teeth: [], unavailable: measured.unavailable };
  await db
    .insert(planMovements)
    .values({ planId, arch, ...values })
    .onConflictDoUpdate({
      target: [planMovements.planId, planMovements.arch],
      set: { ...values, measuredAt: new Date() },
    });
}

const archName: Record<PlanArch, string> = { upper: 'Upper arch', lower: 'Lower arch' };

export async function readPlanMovements(
  db: Database,
  planId: number,
  limits: StepLimits,
): Promise<PlanMovementsAnswer> {
  const rows = await db.select().from(planMovements).where(eq(planMovements.planId, planId));
  const views = await findPlanViews(db, planId);
  const teeth: PlanMovementsAnswer['teeth'] = [];
  const reasons: string[] = [];
  for (const arch of planArches) {
    const view = views[arch];
    // An arch without stages has no copy and nothing to measure.
    if (!view) continue;
    const row = rows.find((found) => found.arch === arch);
    if (row && !row.unavailable) {
      // Kept for pins and the prescription's check, not answered.
      const measured = row.teeth as MeasuredMovement[];
      for (const { centres: _centres, furthestMm: _mm, furthestDeg: _deg, ...tooth } of measured) {
        teeth.push({ ...tooth, overLimit: tooth.maxStepMm > limits.stepMm || tooth.maxStepDeg > limits.stepDeg });
      }
    } else if (row?.unavailable) {
      reasons.push(`${archName[arch]}: ${row.unavailable}.`);
    } else if (view.state === 'pending') {
      reasons.push(`${archName[arch]}: the movements are being measured with the 3D copy; this takes a minute.`);
    } else if (view.state === 'failed') {
      reasons.push(
        `${archName[arch]}: no 3D copy could be made (${view.error ?? 'unknown error'}), so nothing was measured.`,
      );
    } else {
      reasons.push(`${archName[arch]}: this version was uploaded before movements were measured.`);
    }
  }
  teeth.sort((a, b) => a.tooth - b.tooth);
  return {
    available: teeth.length > 0,
    ...(reasons.length > 0 ? { reason: reasons.join(' ') } : {}),
    limits,
    teeth,
  };
}

/** A pin's nearest tooth: the tooth whose centre lies nearest `point` at `stage` (its last, past it); null when unmeasured. */
export async function nearestTooth(
  db: Database,
  planId: number,
  arch: PlanArch,
  stage: number,
  point: number[],
): Promise<number | null> {
  const [row] = await db
    .select({ teeth: planMovements.teeth })
    .from(planMovements)
    .where(and(eq(planMovements.planId, planId), eq(planMovements.arch, arch)));
  let nearest: { tooth: number; distance: number } | undefined;
  for (const { tooth, centres } of (row?.teeth ?? []) as MeasuredMovement[]) {
    // Rows measured before centres were kept have none.
    if (!centres) continue;
    const at = Math.min(stage, centres.length / 3 - 1) * 3;
    const distance = Math.hypot(centres[at]! - point[0]!, centres[at + 1]! - point[1]!, centres[at + 2]! - point[2]!);
    if (!nearest || distance < nearest.distance) nearest = { tooth, distance };
  }
  return nearest?.tooth ?? null;
}
