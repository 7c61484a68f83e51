import {
  checkPlan,
  planArches,
  type CheckedTooth,
  type PlanArch,
  type PlanFinding,
  type PlanFindingsCheck,
} from '@portal/contract';
import { eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { cases, meshViews, planMovements } from '../../db/schema.ts';
import type { MeasuredMovement } from '../../meshes/tooth-movements.ts';
import type { StepLimits } from './plan-movements.ts';
import { planViewSource } from './plan-views.ts';

/**
 * Plan versions checked against their case's prescription and the lab's per-stage limits
 * (docs/decisions/plans.md § Plans checked against the prescription): the contract's checkPlan
 * over the case's prescription, each version's summary and the movements its view job measured.
 * Checked when read, so the answer follows the prescription and the limits of the moment.
 */

export interface CheckedPlan {
  findings: PlanFinding[];
  findingsCheck: PlanFindingsCheck;
}

const archName: Record<PlanArch, string> = { upper: 'Upper arch', lower: 'Lower arch' };

type Reader = Pick<Database, 'select'>;

export async function checkPlanVersions(
  db: Reader,
  caseId: number,
  plans: { planId: number; summary: unknown }[],
  limits: StepLimits,
): Promise<Map<number, CheckedPlan>> {
  const checked = new Map<number, CheckedPlan>();
  if (plans.length === 0) return checked;
  const [prescription] = await db
    .select({
      moveTooth: cases.moveTooth,
      extractTooth: cases.extractTooth,
      noAttachment: cases.noAttachment,
      ipr: cases.ipr,
      iprPrescription: cases.iprPrescription,
      toothNumbering: cases.toothNumbering,
    })
    .from(cases)
    .where(eq(cases.caseId, caseId));
  const planIds = plans.map((plan) => plan.planId);
  const rows = await db.select().from(planMovements).where(inArray(planMovements.planId, planIds));
  const views = await db
    .select({ sourceKey: meshViews.sourceKey, state: meshViews.state, error: meshViews.error })
    .from(meshViews)
    .where(
      inArray(
        meshViews.sourceKey,
        plans.flatMap(({ planId }) => planArches.map((arch) => planViewSource(planId, arch))),
      ),
    );
  for (const { planId, summary: stored } of plans) {
    const summary = stored as Parameters<typeof checkPlan>[0]['summary'];
    const measured: CheckedTooth[] = [];
    const measuredArches: PlanArch[] = [];
    let isPending = false;
    const notes: string[] = [];
    for (const arch of planArches) {
      if ((arch === 'upper' ? summary.upperStages : summary.lowerStages) === 0) continue;
      const row = rows.find((found) => found.planId === planId && found.arch === arch);
      const view = views.find((found) => found.sourceKey === planViewSource(planId, arch));
      if (row && !row.unavailable) {
        measuredArches.push(arch);
        for (const tooth of row.teeth as MeasuredMovement[]) {
          measured.push({
            tooth: tooth.tooth,
            // Rows measured before the furthest move was kept: the last stage's.
            furthestMm: tooth.furthestMm ?? tooth.translationMm.total,
            furthestDeg:
              tooth.furthestDeg ??
              Math.hypot(tooth.rotationDeg.tip, tooth.rotationDeg.torque, tooth.rotationDeg.rotation),
            maxStepMm: tooth.maxStepMm,
            maxStepDeg: tooth.maxStepDeg,
          });
        }
      } else if (!row && view?.state === 'pending') {
        isPending = true;
      } else {
        const why = row?.unavailable ?? (view?.state === 'failed' ? `no 3D copy (${view.error})` : 'not measured');
        notes.push(`${archName[arch]}: its tooth movements could not be measured (${why}).`);
      }
    }
    const findings = checkPlan({
      prescription: prescription!,
      summary,
      limits,
      measured,
      measuredArches,
    });
    const findingsCheck: PlanFindingsCheck = isPending
      ? {
          state: 'pending',
          note: 'The tooth movements are being measured: the check against the prescription is not complete yet.',
        }
      : notes.length > 0
        ? {
            state: 'partial',
            note: `${notes.join(' ')} Only the summary (IPR, attachments) was checked there; don't-move teeth, extractions and the step limit were not.`,
          }
        : { state: 'complete', note: null };
    checked.set(planId, { findings, findingsCheck });
  }
  return checked;
}
