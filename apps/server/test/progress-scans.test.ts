import { NodeIO } from '@gltf-transform/core';
import { EXTMeshoptCompression, KHRMeshQuantization } from '@gltf-transform/extensions';
import {
  progressViewDistanceCapMm,
  renderServerMessage,
  toothLabel,
  type ServerMessageCode,
  type ServerMessageParams,
} from '@portal/contract';
import { count, eq } from 'drizzle-orm';
import { MeshoptDecoder } from 'meshoptimizer/decoder';
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, progressScans } from '../src/db/schema.ts';
import { fitProgressTask } from '../src/meshes/derivative-worker.ts';
import { progressFitJob } from '../src/services/plans/progress-scans.ts';
import { sweepOrphanedProgressFiles } from '../src/services/plans/sweep-orphaned-progress-files.ts';
import { clockPastWrites } from './helpers/wait-until.ts';
import { planArchForFit } from './helpers/progress-plan.ts';
import { caseFields, caseForm, createCaseDoctor, submitCase, type UploadFile } from './helpers/case-factories.ts';
import { planArchStages, type PlanOptions } from './helpers/dental-meshes.ts';
import { openEventStream } from './helpers/event-stream.ts';
import { createAssistant, createStaff } from './helpers/factories.ts';
import { approvedPlan, planForm, planSummaryOf } from './helpers/plan-factories.ts';
import { progressScan } from './helpers/progress-scans.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * Progress scans through the API (issue 42, docs/decisions/progress-scans.md): a scan sent
 * with the stage worn is stored, fitted by a background job against the approved plan's
 * stage and read back tooth by tooth; refused requests leave nothing behind.
 */

let t: TestApp;
let admin: string;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let other: Awaited<ReturnType<typeof createCaseDoctor>>;
let caseId: number;
let planId: number;
let base: string;
const plan: PlanOptions = { stages: 10, trianglesPerTooth: 4000 };
const scanSize = { trianglesPerTooth: 12_000, gumTriangles: 30_000, plan };
const stage = 9;

const stageFilesOf = (stls: Uint8Array[]): UploadFile[] =>
  stls.map((data, index) => ({ name: `upper_${String(index).padStart(2, '0')}.stl`, data: Buffer.from(data) }));

async function newCase(): Promise<number> {
  const created = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId)));
  expect(created.statusCode, created.body).toBe(200);
  return created.json<{ CaseId: number }>().CaseId;
}

function scanForm(fields: { stage?: string; upper?: Uint8Array | Buffer; lower?: Uint8Array | Buffer }): FormData {
  const form = new FormData();
  if (fields.stage !== undefined) form.append('stage', fields.stage);
  for (const arch of ['upper', 'lower'] as const) {
    const data = fields[arch];
    if (data) form.append(arch, new Blob([new Uint8Array(data)]), `${arch}.stl`);
  }
  return form;
}

const send = (token: string, form: FormData, onCase = caseId) =>
  t.as(token, { method: 'POST', url: `/api/case/${onCase}/progress-scans`, payload: form });
const list = (token: string, onCase = caseId) =>
  t.as(token, { method: 'GET', url: `/api/case/${onCase}/progress-scans` });
const read = (token: string, id: number, onCase = caseId) =>
  t.as(token, { method: 'GET', url: `/api/case/${onCase}/progress-scans/${id}` });

async function leftBehind() {
  const [row] = await t.app.db.select({ scans: count() }).from(progressScans);
  const folder = path.join(t.dataDir, 'files', 'progress');
  const files = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return { scans: row!.scans, files: files.filter((entry) => entry.isFile()).length };
}

const upperScan = progressScan({ arch: 'upper', stage, stuck: [], seed: 1, ...scanSize });
const upperTeeth = upperScan.planned.map((tooth) => tooth.universal).sort((a, b) => a - b);
const stuckTooth = upperTeeth[3]!;
const stuckScan = progressScan({ arch: 'upper', stage, stuck: [stuckTooth], seed: 2, ...scanSize });

const viewIo = new NodeIO()
  .registerExtensions([EXTMeshoptCompression, KHRMeshQuantization])
  .registerDependencies({ 'meshopt.decoder': MeshoptDecoder });

/** A progress scan's viewing copy as the browser reads it: its vertices in millimetres (the node's matrix applied) and their distances. */
/** One node of a progress scan's copy (`detail`, every triangle, or `overview`): its vertices in millimetres, their distances, its triangles. */
async function readProgressView(glb: Buffer, name: 'detail' | 'overview' = 'detail') {
  await MeshoptDecoder.ready;
  const document = await viewIo.readBinary(new Uint8Array(glb));
  const node = document
    .getRoot()
    .listNodes()
    .find((candidate) => candidate.getName() === name)!;
  const primitive = node.getMesh()!.listPrimitives()[0]!;
  const matrix = node.getWorldMatrix();
  const position = primitive.getAttribute('POSITION')!;
  const distance = primitive.getAttribute('_DISTANCE')!;
  const positions = new Float64Array(position.getCount() * 3);
  const distances = new Float64Array(distance.getCount());
  const p: number[] = [];
  for (let v = 0; v < position.getCount(); v++) {
    const [x, y, z] = position.getElement(v, p) as [number, number, number];
    for (let axis = 0; axis < 3; axis++) {
      positions[v * 3 + axis] = matrix[axis]! * x + matrix[4 + axis]! * y + matrix[8 + axis]! * z + matrix[12 + axis]!;
    }
    distances[v] = distance.getElement(v, p)[0]! * progressViewDistanceCapMm;
  }
  return { positions, distances, triangles: primitive.getIndices()!.getCount() / 3 };
}

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  admin = await t.adminToken();
  doctor = await createCaseDoctor(t);
  // The timeline names teeth in the reader's notation (docs/decisions/tooth-notation.md): the case's, Universal, here.
  const notation = await t.as(doctor.token, {
    method: 'PUT',
    url: '/api/account/tooth-notation',
    payload: { toothNotation: 'Universal' },
  });
  if (notation.statusCode !== 200) throw new Error(notation.body);
  other = await createCaseDoctor(t);
  caseId = await newCase();
  ({ planId } = await approvedPlan(
    t,
    admin,
    doctor.token,
    caseId,
    planForm(planSummaryOf(plan.stages!, 0), stageFilesOf([...planArchStages('upper', plan)])),
  ));
});
afterAll(() => t?.close());

describe('a progress scan', () => {
  let doneId: number;

  it("is fitted by a background job: the stuck tooth off track, each tooth in its own axes, the fit's anchors and residual", async () => {
    const scan = stuckScan;
    const lab = await createStaff(t, [1]);
    const streams = [doctor.token, lab.token, other.token].map((token) =>
      openEventStream(`${base}/api/events`, { authorization: `Bearer ${token}` }),
    );
    const [doctorStream, labStream, otherStream] = await Promise.all(streams);
    const sent = await send(doctor.token, scanForm({ stage: String(stage), upper: scan.stl }));
    expect(sent.statusCode, sent.body).toBe(202);
    const { progressScanId, state } = sent.json<{ progressScanId: number; state: string }>();
    expect(state).toBe('queued');
    doneId = progressScanId;
    const queued = (await read(doctor.token, progressScanId)).json();
    expect(queued).toMatchObject({ progressScanId, planId, stage, state: 'queued', arches: [] });

    await t.app.jobs.runDue();
    // The doctor's side and the lab hear the scan sent and its result ready; another doctor hears neither.
    const isThis = (state: string) => (event: { type: string; data: unknown }) =>
      event.type === 'case.progressScan' &&
      (event.data as { progressScanId: number; state: string }).progressScanId === progressScanId &&
      (event.data as { state: string }).state === state;
    for (const reader of [doctorStream!, labStream!]) {
      await reader.waitFor(isThis('queued'));
      expect((await reader.waitFor(isThis('done'))).data).toMatchObject({ caseId, progressScanId, state: 'done' });
    }
    for (const reader of [doctorStream!, labStream!, otherStream!]) reader.close();
    expect(otherStream!.events.filter((event) => event.type === 'case.progressScan')).toEqual([]);
    const answer = await read(doctor.token, progressScanId);
    expect(answer.statusCode, answer.body).toBe(200);
    const result = answer.json<{
      state: string;
      reason?: string;
      arches: {
        arch: string;
        rmsMm: number;
        anchorTeeth: number[];
        teeth: { tooth: number; offTrack: boolean; matchedStage: number; translationMm: object; rotationDeg: object }[];
      }[];
    }>();
    expect(result.reason).toBeUndefined();
    expect(result.state).toBe('done');
    expect(result.arches).toHaveLength(1);
    const [upper] = result.arches;
    expect(upper!.arch).toBe('upper');
    expect(upper!.rmsMm).toBeLessThan(0.05);
    expect(upper!.anchorTeeth).not.toContain(stuckTooth);
    expect(upper!.teeth.map((tooth) => tooth.tooth).sort((a, b) => a - b)).toEqual(upperTeeth);
    const stuck = upper!.teeth.find((tooth) => tooth.tooth === stuckTooth)!;
    expect(stuck).toMatchObject({ offTrack: true });
    expect(stuck.matchedStage).toBeLessThan(stage);
    expect(Object.keys(stuck.translationMm).sort()).toEqual(['buccolingual', 'mesiodistal', 'vertical']);
    expect(Object.keys(stuck.rotationDeg).sort()).toEqual(['rotation', 'tip', 'torque']);
    const [audit] = await t.app.db
      .select({ target: auditLog.target })
      .from(auditLog)
      .where(eq(auditLog.action, 'progressScan.create'));
    expect(audit?.target).toBe(`case:${caseId}/progressScan:${progressScanId}`);
  });

  it("comes with each arch's scan in the plan's frame, coloured by its distance to the planned stage; out of another doctor's reach", async () => {
    const answer = await t.as(doctor.token, {
      method: 'GET',
      url: `/api/case/${caseId}/progress-scans/${doneId}/view/upper`,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe('model/gltf-binary');
    const { positions, distances } = await readProgressView(answer.rawPayload);
    expect(distances.length).toBeGreaterThan(10_000);
    // Vertex by vertex, against the planned tooth nearest it at the worn stage: on the crowns of
    // the teeth on track, off that of the stuck one (its planned centre at `stage` is empty there).
    const planned = stuckScan.planned;
    const nearestTooth = (x: number, y: number, z: number) => {
      let best = planned[0]!;
      let bestSquared = Infinity;
      for (const tooth of planned) {
        const [cx, cy, cz] = tooth.centroids[stage]!;
        const squared = (x - cx) ** 2 + (y - cy) ** 2 + (z - cz) ** 2;
        if (squared < bestSquared) [best, bestSquared] = [tooth, squared];
      }
      return best.universal;
    };
    // The gum band, nearest the planned roots, is drawn as what the plan has not (at the cap).
    const atCap = distances.filter((d) => d >= progressViewDistanceCapMm - 1e-3).length;
    expect(atCap / distances.length).toBeGreaterThan(0.1);
    const byTooth = new Map<number, number[]>();
    for (let v = 0; v < distances.length; v++) {
      if (distances[v]! >= progressViewDistanceCapMm - 1e-3) continue;
      const tooth = nearestTooth(positions[v * 3]!, positions[v * 3 + 1]!, positions[v * 3 + 2]!);
      byTooth.set(tooth, [...(byTooth.get(tooth) ?? []), distances[v]!]);
    }
    const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;
    for (const tooth of upperTeeth.filter((tooth) => tooth !== stuckTooth)) {
      expect(median(byTooth.get(tooth) ?? [Infinity]), `tooth ${tooth}`).toBeLessThan(0.08);
    }
    const stuckDistances = byTooth.get(stuckTooth) ?? [];
    expect(stuckDistances.filter((d) => d > 0.25).length / Math.max(1, stuckDistances.length)).toBeGreaterThan(0.5);

    // Its overview, what the overlay draws while the whole arch is in view: under 30% of the
    // triangles (this scan is coarse and noisy: on positions alone, within the same 0.05 mm, 26%;
    // a real scan's is its 1/8), on vertices of the scan, each with the distance the detail gives
    // it (each node is quantized on its own grid, under 0.01 mm a step: matched by nearest vertex).
    const detail = await readProgressView(answer.rawPayload, 'detail');
    const overview = await readProgressView(answer.rawPayload, 'overview');
    expect(overview.triangles).toBeGreaterThan(0);
    expect(overview.triangles).toBeLessThan(detail.triangles * 0.3);
    const cell = 0.05;
    const keyOf = (x: number, y: number, z: number) =>
      `${Math.floor(x / cell)},${Math.floor(y / cell)},${Math.floor(z / cell)}`;
    const grid = new Map<string, number[]>();
    for (let v = 0; v < detail.distances.length; v++) {
      const key = keyOf(detail.positions[v * 3]!, detail.positions[v * 3 + 1]!, detail.positions[v * 3 + 2]!);
      grid.set(key, [...(grid.get(key) ?? []), v]);
    }
    let [matched, agreeing] = [0, 0];
    for (let v = 0; v < overview.distances.length; v++) {
      const [x, y, z] = [overview.positions[v * 3]!, overview.positions[v * 3 + 1]!, overview.positions[v * 3 + 2]!];
      let [nearest, nearestSquared] = [-1, Infinity];
      for (const dx of [-1, 0, 1])
        for (const dy of [-1, 0, 1])
          for (const dz of [-1, 0, 1])
            for (const w of grid.get(keyOf(x + dx * cell, y + dy * cell, z + dz * cell)) ?? []) {
              const squared =
                (detail.positions[w * 3]! - x) ** 2 +
                (detail.positions[w * 3 + 1]! - y) ** 2 +
                (detail.positions[w * 3 + 2]! - z) ** 2;
              if (squared < nearestSquared) [nearest, nearestSquared] = [w, squared];
            }
      if (nearest < 0 || nearestSquared > 0.02 ** 2) continue;
      matched++;
      if (Math.abs(detail.distances[nearest]! - overview.distances[v]!) < 1e-3) agreeing++;
    }
    expect(matched / overview.distances.length).toBeGreaterThan(0.999);
    expect(agreeing / matched).toBeGreaterThan(0.999);

    // As far as the scan itself reaches: another doctor is 404, an arch not sent 404.
    const elsewhere = await t.as(other.token, {
      method: 'GET',
      url: `/api/case/${caseId}/progress-scans/${doneId}/view/upper`,
    });
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json()).toEqual({ message: 'Case not found', code: 'notFound', params: { what: 'Case' } });
    const lower = await t.as(doctor.token, {
      method: 'GET',
      url: `/api/case/${caseId}/progress-scans/${doneId}/view/lower`,
    });
    expect(lower.statusCode).toBe(404);
    expect(lower.json()).toEqual({ message: 'This progress scan has no scan of that arch' });
  });

  it('has its viewing copy made by the job claimed again when a process stopped between the answer and the copy', async () => {
    // As a process that died after storing the answer leaves it: the copy named, no size, no object.
    const [row] = await t.app.db.select().from(progressScans).where(eq(progressScans.progressScanId, doneId));
    await t.app.storage.delete(row!.upperViewKey!);
    await t.app.db.update(progressScans).set({ upperViewBytes: null }).where(eq(progressScans.progressScanId, doneId));
    const view = () =>
      t.as(doctor.token, { method: 'GET', url: `/api/case/${caseId}/progress-scans/${doneId}/view/upper` });
    expect((await view()).statusCode).toBe(409);
    // Its lease run out, the job is claimed again: the answer stays as it was, the copy is made.
    await t.app.jobs.enqueue(t.app.db, progressFitJob, { progressScanId: doneId }, doctor.userId);
    await t.app.jobs.runDue();
    const made = await view();
    expect(made.statusCode, made.body).toBe(200);
    expect((await readProgressView(made.rawPayload)).distances.length).toBeGreaterThan(10_000);
    const [after] = await t.app.db.select().from(progressScans).where(eq(progressScans.progressScanId, doneId));
    expect(after!.arches).toEqual(row!.arches);
    expect(after!.finishedAt).toEqual(row!.finishedAt);
  });

  it("leaves the sweep of a killed upload's files the scans and copies a row names, and deletes the rest", async () => {
    const keysUnder = async (prefix: string) => {
      const keys: string[] = [];
      for await (const entry of t.app.storage.list(prefix)) keys.push(entry.key);
      return keys.sort();
    };
    const named = await keysUnder('progress');
    const [row] = await t.app.db.select().from(progressScans).where(eq(progressScans.progressScanId, doneId));
    expect(named).toEqual(expect.arrayContaining([row!.upperKey, row!.upperViewKey]));
    // What a process killed mid-upload leaves: a scan stored, its row never written.
    const orphans = [`progress/${randomUUID()}/a`, `progress/${randomUUID()}/b.view.glb`];
    for (const key of orphans) await t.app.storage.put(key, Buffer.from('left behind'), 'application/octet-stream');
    await clockPastWrites();
    expect(await sweepOrphanedProgressFiles({ db: t.app.db, storage: t.app.storage }, { graceSeconds: 0 })).toBe(2);
    expect(await keysUnder('progress')).toEqual(named);
  });

  it('a scan of the wrong arch ends failed, with the reason, by its code for the reader too', async () => {
    const lower = progressScan({ arch: 'lower', stage, seed: 4, ...scanSize });
    const sent = await send(doctor.token, scanForm({ stage: String(stage), upper: lower.stl }));
    expect(sent.statusCode, sent.body).toBe(202);
    await t.app.jobs.runDue();
    const result = (await read(doctor.token, sent.json<{ progressScanId: number }>().progressScanId)).json<{
      state: string;
      reason: string;
      reasonCode: ServerMessageCode;
      reasonParams: ServerMessageParams;
      arches: unknown[];
    }>();
    expect(result.state).toBe('failed');
    expect(result.reason).toMatch(/^the upper scan does not fit the plan: /);
    // The same sentence from its code and values, as the web app and the mails put it together.
    expect(result.reasonCode).toBe('progressScanDoesNotFit');
    expect(result.reasonParams).toEqual({
      arch: 'upper',
      found: expect.any(Number),
      teeth: expect.any(Number),
      needed: expect.any(Number),
    });
    expect(renderServerMessage(result.reasonCode, result.reasonParams)).toBe(result.reason);
    expect(result.arches).toEqual([]);
    const view = await t.as(doctor.token, {
      method: 'GET',
      url: `/api/case/${caseId}/progress-scans/${sent.json<{ progressScanId: number }>().progressScanId}/view/upper`,
    });
    expect(view.statusCode).toBe(409);
    expect(view.json<{ message: string }>().message).toMatch(/^No viewing copy was made of this scan/);
  });

  it('the assistant and the lab may send one; the list is newest first with a summary of each done scan', async () => {
    const assistant = await createAssistant(t, doctor.token);
    const staff = await createStaff(t, [1]);
    const ids: number[] = [];
    for (const token of [assistant.token, staff.token]) {
      const sent = await send(token, scanForm({ stage: '3', upper: upperScan.stl }));
      expect(sent.statusCode, sent.body).toBe(202);
      ids.push(sent.json<{ progressScanId: number }>().progressScanId);
    }
    const listed = await list(assistant.token);
    expect(listed.statusCode).toBe(200);
    const items = listed.json<
      {
        progressScanId: number;
        state: string;
        stage: number;
        summary: { offTrackTeeth: number[]; sentence: string } | null;
      }[]
    >();
    expect(items.map((item) => item.progressScanId)).toEqual(
      [...ids].reverse().concat(items.slice(2).map((i) => i.progressScanId)),
    );
    expect(items.slice(0, 2).map((item) => item.state)).toEqual(['queued', 'queued']);
    const done = items.find((item) => item.progressScanId === doneId)!;
    expect(done.summary!.offTrackTeeth).toContain(stuckTooth);
    expect(done.summary!.sentence).toMatch(
      new RegExp(
        `^${done.summary!.offTrackTeeth.length} of ${upperTeeth.length} teeth off track: .*${stuckTooth}.*; the rest on track$`,
      ),
    );
    expect(items.find((item) => item.state === 'failed')!.summary).toBeNull();
    expect(items.map((item) => item.progressScanId)).toEqual(
      [...items.map((item) => item.progressScanId)].sort((a, b) => b - a),
    );
    expect((await list(staff.token)).json()).toEqual(items);
    // The case's timeline has each scan where it was sent, with its result as it stands.
    const timeline = await t.as(doctor.token, { method: 'GET', url: `/api/case/${caseId}/timeline` });
    expect(timeline.statusCode, timeline.body).toBe(200);
    const entries = timeline
      .json<
        { kind: string; progressScanId?: number; state?: string; sentence?: string | null; reason?: string | null }[]
      >()
      .filter((entry) => entry.kind === 'progress_scan');
    expect(entries.map((entry) => entry.progressScanId)).toEqual(items.map((item) => item.progressScanId).toReversed());
    expect(entries.find((entry) => entry.progressScanId === doneId)).toMatchObject({
      state: 'done',
      sentence: done.summary!.sentence,
      reason: null,
    });
    expect(entries.find((entry) => entry.state === 'failed')!.reason).toMatch(
      /^the upper scan does not fit the plan: /,
    );
    // In another reader's notation, the same teeth named as they read them.
    const setNotation = async (toothNotation: string) =>
      expect(
        (await t.as(doctor.token, { method: 'PUT', url: '/api/account/tooth-notation', payload: { toothNotation } }))
          .statusCode,
      ).toBe(200);
    await setNotation('FDI');
    const inFdi = (await t.as(doctor.token, { method: 'GET', url: `/api/case/${caseId}/timeline` }))
      .json<{ progressScanId?: number; sentence?: string | null }[]>()
      .find((entry) => entry.progressScanId === doneId)!;
    expect(inFdi.sentence).toMatch(new RegExp(`teeth off track: .*\\b${toothLabel(stuckTooth, 'FDI')}\\b`));
    await setNotation('Universal');
  });

  it('is 404 to another doctor, to send, list or read, and nothing is left behind', async () => {
    const before = await leftBehind();
    const sent = await send(other.token, scanForm({ stage: '2', upper: upperScan.stl }));
    expect(sent.statusCode).toBe(404);
    expect(sent.json()).toEqual({ message: 'Case not found', code: 'notFound', params: { what: 'Case' } });
    expect((await list(other.token)).statusCode).toBe(404);
    expect((await read(other.token, doneId)).statusCode).toBe(404);
    expect(await leftBehind()).toEqual(before);
    // A scan of another case is not found through this one.
    const elsewhere = await newCase();
    expect((await read(doctor.token, doneId, elsewhere)).json()).toEqual({
      message: 'Progress scan not found',
      code: 'notFound',
      params: { what: 'Progress scan' },
    });
  });

  it('is 409 without an approved plan, 400 for a stage past the plan, a text file or no scan, leaving nothing behind', async () => {
    const before = await leftBehind();
    const unplanned = await newCase();
    const noPlan = await send(doctor.token, scanForm({ stage: '2', upper: upperScan.stl }), unplanned);
    expect(noPlan.statusCode).toBe(409);
    expect(noPlan.json<{ message: string }>().message).toMatch(/approved plan/);

    const pastPlan = await send(doctor.token, scanForm({ stage: '11', upper: upperScan.stl }));
    expect(pastPlan.statusCode).toBe(400);
    expect(pastPlan.json<{ message: string }>().message).toBe(
      "Stage must be from 1 to 10, the approved plan's last stage",
    );

    const text = await send(doctor.token, scanForm({ stage: '2', upper: Buffer.from('solid? no, just a note\n') }));
    expect(text.statusCode).toBe(400);
    expect(text.json<{ message: string }>().message).toBe('The upper scan is not an STL mesh');

    const noLower = await send(doctor.token, scanForm({ stage: '2', lower: upperScan.stl }));
    expect(noLower.statusCode).toBe(400);
    expect(noLower.json<{ message: string }>().message).toBe('The approved plan has no lower stages');

    const none = await send(doctor.token, scanForm({ stage: '2' }));
    expect(none.statusCode).toBe(400);
    expect(none.json<{ message: string }>().message).toBe('Send the upper scan, the lower scan or both, as STL');
    expect(await leftBehind()).toEqual(before);
  });

  it('over the bound of triangles is refused before it is fitted, by a binary header before its triangles are read', () => {
    const fitted = planArchForFit('upper', { stages: 2, trianglesPerTooth: 400 });
    const options = { stage: 1, offTrackMm: 0.5, offTrackDeg: 2 };
    const stl = new Uint8Array(upperScan.stl);
    const triangles = (stl.byteLength - 84) / 50;
    expect(fitProgressTask({ plan: fitted, stl, options, maxTriangles: triangles - 1 })).toEqual({
      refused: { code: 'progressScanTooManyTriangles', params: { triangles, maxTriangles: triangles - 1 } },
    });
    // A header that lies (more triangles than the file holds) is not taken at its word: the file is read, and refused.
    const lying = new Uint8Array(stl);
    new DataView(lying.buffer).setUint32(80, triangles + 1, true);
    expect(() => fitProgressTask({ plan: fitted, stl: lying, options, maxTriangles: triangles - 1 })).toThrow(
      /not a valid STL file/,
    );
  });
});
