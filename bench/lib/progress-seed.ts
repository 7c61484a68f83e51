import { planArchStages, scanStl, type PlanOptions } from '../../apps/server/test/helpers/dental-meshes.ts';
import { benchCaseFields } from './seed-api.ts';

/** What the progress-scan benches (progress-job.ts, progress-overlay.ts) send the portal. */

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One API request with the token; its JSON answer, or an error with the status and body. */
export async function call(url: string, token: string, init: RequestInit = {}) {
  const response = await fetch(url, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
  const body = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${body}`);
  return JSON.parse(body) as Record<string, unknown>;
}

/** A multipart form of text fields and files ([field, bytes, file name]). */
export const formOf = (fields: Record<string, string>, files: [string, Uint8Array, string][]) => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const [key, data, name] of files) form.append(key, new Blob([new Uint8Array(data)]), name);
  return form;
};

/**
 * A case of the doctor's with the generated plan of both arches uploaded by the administrator,
 * processed (copies, movements, the arch stored for fits) and then approved by the doctor; with
 * the stage files sent (upper first).
 */
export async function caseWithApprovedPlan(
  base: string,
  adminToken: string,
  doctor: { token: string; clinicId: number },
  plan: PlanOptions,
): Promise<{ caseId: number; planId: number; stageFiles: [string, Uint8Array, string][] }> {
  const created = await call(`${base}/api/case/add`, doctor.token, {
    method: 'POST',
    body: formOf(benchCaseFields(doctor.clinicId), [
      ['maxillaryScan', scanStl(2_000, 1), 'upper.stl'],
      ['mandibularScan', scanStl(2_000, 2), 'lower.stl'],
    ]),
  });
  const caseId = created.CaseId as number;
  const stageFiles: [string, Uint8Array, string][] = [];
  for (const arch of ['upper', 'lower'] as const) {
    let k = 0;
    for (const stl of planArchStages(arch, plan))
      stageFiles.push(['stages', stl, `${arch}_${String(k++).padStart(2, '0')}.stl`]);
  }
  const summary = { upperStages: plan.stages, lowerStages: plan.stages, ipr: [], attachmentTeeth: [], notes: 'Bench' };
  const uploaded = await call(`${base}/api/case/${caseId}/plans`, adminToken, {
    method: 'POST',
    body: formOf({ summary: JSON.stringify(summary) }, stageFiles),
  });
  const planId = uploaded.planId as number;
  // The plan's processing done before it is approved.
  for (;;) {
    const views = JSON.stringify(await call(`${base}/api/case/${caseId}/plans/${planId}/views`, doctor.token));
    if (!views.includes('"pending"')) break;
    await pause(500);
  }
  await call(`${base}/api/case/${caseId}/plans/${planId}/approve`, doctor.token, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ reviewedIn3d: true, findingsAcknowledged: true }),
  });
  return { caseId, planId, stageFiles };
}
