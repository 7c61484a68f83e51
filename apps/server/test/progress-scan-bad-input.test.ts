import { count } from 'drizzle-orm';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { progressScans } from '../src/db/schema.ts';
import { caseFields, caseForm, createCaseDoctor, submitCase, type UploadFile } from './helpers/case-factories.ts';
import { planArchStages, type PlanOptions } from './helpers/dental-meshes.ts';
import { approvedPlan, planForm, planSummaryOf } from './helpers/plan-factories.ts';
import { progressScan } from './helpers/progress-scans.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * Progress scans that are not what they say (issue 42 § Bad input): each is a clear 4xx at
 * upload that leaves nothing behind, or a failed job with its reason; the queue goes on
 * fitting the next scan either way.
 */

const maxUploadBytes = 6_000_000;
const plan: PlanOptions = { stages: 3, trianglesPerTooth: 1500 };
const stage = 2;
const scan = progressScan({ arch: 'upper', stage, stuck: [], seed: 3, trianglesPerTooth: 3000, gumTriangles: 8000, plan });

let t: TestApp;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let caseId: number;

const stageFilesOf = (stls: Uint8Array[]): UploadFile[] =>
  stls.map((data, index) => ({ name: `upper_${String(index).padStart(2, '0')}.stl`, data: Buffer.from(data) }));

const send = (upper: Uint8Array) => {
  const form = new FormData();
  form.append('stage', String(stage));
  form.append('upper', new Blob([new Uint8Array(upper)]), 'upper.stl');
  return t.as(doctor.token, { method: 'POST', url: `/api/case/${caseId}/progress-scans`, payload: form });
};
const read = (id: number) =>
  t.as(doctor.token, { method: 'GET', url: `/api/case/${caseId}/progress-scans/${id}` });

async function leftBehind() {
  const [row] = await t.app.db.select({ scans: count() }).from(progressScans);
  const folder = path.join(t.dataDir, 'files', 'progress');
  const files = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return { scans: row!.scans, files: files.filter((entry) => entry.isFile()).length };
}

/** Sends `upper`, runs the queue, and answers the scan as read back. */
async function fitted(upper: Uint8Array) {
  const sent = await send(upper);
  expect(sent.statusCode, sent.body).toBe(202);
  await t.app.jobs.runDue();
  return read(sent.json<{ progressScanId: number }>().progressScanId);
}

beforeAll(async () => {
  t = await createTestApp({ maxUploadBytes });
  const admin = await t.adminToken();
  doctor = await createCaseDoctor(t);
  const created = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId)));
  caseId = created.json<{ CaseId: number }>().CaseId;
  await approvedPlan(
    t,
    admin,
    doctor.token,
    caseId,
    planForm(planSummaryOf(plan.stages!, 0), stageFilesOf([...planArchStages('upper', plan)])),
  );
  expect(scan.stl.byteLength).toBeLessThan(maxUploadBytes);
});
afterAll(() => t?.close());

describe('a progress scan that is not what it says', () => {
  it('is a 400 when empty, a header alone or cut short, and a 413 past the upload bound, leaving nothing behind', async () => {
    const before = await leftBehind();
    const stl = new Uint8Array(scan.stl);
    const refusals: [string, Uint8Array, number, string][] = [
      ['empty', new Uint8Array(0), 400, 'The upper scan is not an STL mesh'],
      ['a header alone', stl.subarray(0, 84), 400, 'The upper scan is not an STL mesh'],
      ['cut short', stl.subarray(0, stl.byteLength - 1000), 400, 'The upper scan is not an STL mesh'],
      ['past the bound', new Uint8Array(maxUploadBytes + 1000), 413, 'The scan is larger than the server allows'],
    ];
    for (const [what, upper, status, message] of refusals) {
      const answer = await send(upper);
      expect(answer.statusCode, what).toBe(status);
      expect(answer.json<{ message: string }>().message, what).toBe(message);
    }
    expect(await leftBehind()).toEqual(before);
  });

  it('fails with its reason when its coordinates are not numbers, and the next scan is fitted', async () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY]) {
      const upper = new Uint8Array(scan.stl);
      const view = new DataView(upper.buffer);
      // The first vertex of every tenth triangle (12 bytes of normal, then the vertices).
      for (let at = 84; at + 50 <= upper.byteLength; at += 500) view.setFloat32(at + 12, bad, true);
      const answer = await fitted(upper);
      expect(answer.json()).toMatchObject({ state: 'failed' });
      expect(answer.json<{ reason: string }>().reason).toBe(
        'not a valid STL file: triangle 1 has a coordinate that is not a number',
      );
    }
    const next = await fitted(new Uint8Array(scan.stl));
    expect(next.json()).toMatchObject({ state: 'done' });
  });
});
