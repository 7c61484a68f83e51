import { planArchStages, type PlanOptions } from '../../apps/server/test/helpers/dental-meshes.ts';
import { progressScan } from '../../apps/server/test/helpers/progress-scans.ts';
import { apiCall } from './api.ts';

/**
 * What the progress-scan journeys share (issue 42): the server tests' generated plan of 10 upper
 * stages and a scan of it at aligner 9 with one tooth stuck, small enough for a browser run and
 * fitted for real by the portal's job; and the API steps that bring a case there.
 */
const plan: PlanOptions = { stages: 10, trianglesPerTooth: 4000 };
export const progressStage = 9;
const scanSize = { trianglesPerTooth: 12_000, gumTriangles: 30_000, plan };
const planned = progressScan({ arch: 'upper', stage: progressStage, seed: 1, ...scanSize }).planned;
/** How many teeth the plan's arch has. */
export const plannedTeeth = planned.length;
/** The tooth (Universal number) the scan shows stuck. */
export const stuckTooth = planned.map((tooth) => tooth.universal).sort((a, b) => a - b)[3]!;
let stuck: Uint8Array | undefined;
/** The scan's STL, made once on first use. */
export const stuckScanStl = () =>
  (stuck ??= progressScan({ arch: 'upper', stage: progressStage, stuck: [stuckTooth], seed: 2, ...scanSize }).stl);

/** Staff upload the generated plan to the case; answers its planId. */
export async function uploadProgressPlan(caseId: number, staffToken: string): Promise<number> {
  const form = new FormData();
  form.append(
    'summary',
    JSON.stringify({ upperStages: plan.stages, lowerStages: 0, ipr: [], attachmentTeeth: [], notes: '' }),
  );
  [...planArchStages('upper', plan)].forEach((data, index) =>
    form.append('stages', new Blob([new Uint8Array(data)]), `upper_${String(index).padStart(2, '0')}.stl`),
  );
  const { planId } = await apiCall<{ planId: number }>('POST', `/case/${caseId}/plans`, { token: staffToken, form });
  return planId;
}

/**
 * The doctor's approval, answering 'approved' or the refusal's message: to poll, since it is
 * refused until the plan is checked (its movements measured by the portal's job).
 */
export const approvePlan = (caseId: number, planId: number, doctorToken: string) => () =>
  apiCall('POST', `/case/${caseId}/plans/${planId}/approve`, {
    token: doctorToken,
    json: { reviewedIn3d: true, findingsAcknowledged: true },
  }).then(
    () => 'approved',
    (error: Error) => error.message,
  );

/** Sends the stuck scan as the case's upper progress scan; answers a reader of its state, to poll. */
export async function sendProgressScan(caseId: number, token: string): Promise<() => Promise<string>> {
  const form = new FormData();
  form.append('stage', String(progressStage));
  form.append('upper', new Blob([new Uint8Array(stuckScanStl())]), 'upper.stl');
  const { progressScanId } = await apiCall<{ progressScanId: number }>('POST', `/case/${caseId}/progress-scans`, {
    token,
    form,
  });
  return async () =>
    (await apiCall<{ state: string }>('GET', `/case/${caseId}/progress-scans/${progressScanId}`, { token })).state;
}
