import { NodeIO } from '@gltf-transform/core';
import { EXTMeshoptCompression, KHRMeshQuantization } from '@gltf-transform/extensions';
import { MeshoptDecoder } from 'meshoptimizer/decoder';
import { like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { jobs, meshViews } from '../src/db/schema.ts';
import { sweepOrphanedCaseFiles } from '../src/services/cases/sweep-orphaned-files.ts';
import { viewKeyOf } from '../src/services/mesh-views.ts';
import { caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import { scanStl } from './helpers/dental-meshes.ts';
import { makeImage } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * docs/quality/plans-and-meshes.md, Viewing copies of meshes (issue 22): a case's or a message's STL gets a
 * viewing copy from a background job; the copy is reached only by who may read the original,
 * and a file that is no STL is reported, not retried.
 */

let t: TestApp;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let other: Awaited<ReturnType<typeof createCaseDoctor>>;
const scanTriangles = 20_000;
let scanId: number;
let photoId: number;
let fakeScanId: number;
let caseId: number;

beforeAll(async () => {
  t = await createTestApp();
  doctor = await createCaseDoctor(t);
  other = await createCaseDoctor(t);
  const response = await submitCase(
    t,
    doctor.token,
    caseForm(caseFields(doctor.clinicId), {
      maxillaryScan: { name: 'upper.stl', type: 'model/stl', data: Buffer.from(scanStl(scanTriangles, 7)) },
      mandibularScan: { name: 'lower.STL', type: 'model/stl', data: Buffer.from('solid nothing here\nendsolid\n') },
      frontSmiling: { name: 'smile.png', type: 'image/png', data: await makeImage() },
    }),
  );
  expect(response.statusCode, response.body).toBe(200);
  caseId = response.json<{ CaseId: number }>().CaseId;
  const files = await t.as(doctor.token, {
    method: 'GET',
    url: `/api/case/get_cases_attachments_by_case_id/${caseId}`,
  });
  expect(files.statusCode, files.body).toBe(200);
  // FilePath is /api/case/files/<attachment id>/<name>.
  const byName = new Map(
    files
      .json<{ FilePath: string; FileName: string }[]>()
      .map((file) => [file.FileName, Number(file.FilePath.split('/').at(-2))]),
  );
  scanId = byName.get('upper.stl')!;
  fakeScanId = byName.get('lower.STL')!;
  photoId = byName.get('smile.png')!;
});
afterAll(() => t?.close());

const state = (token: string, attachmentId: number) =>
  t.as(token, { method: 'GET', url: `/api/case/file-views/${attachmentId}` });
const mesh = (token: string, attachmentId: number) =>
  t.as(token, { method: 'GET', url: `/api/case/file-views/${attachmentId}/mesh.glb` });

const decoder = new NodeIO()
  .registerExtensions([EXTMeshoptCompression, KHRMeshQuantization])
  .registerDependencies({ 'meshopt.decoder': MeshoptDecoder });

describe('viewing copies of a case STL', () => {
  it('is being made after the upload answered, and 409 until it is', async () => {
    expect((await state(doctor.token, scanId)).json()).toEqual({
      state: 'pending',
      bytes: null,
      triangles: null,
      error: null,
    });
    const early = await mesh(doctor.token, scanId);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ message: 'The viewing copy is being made' });
  });

  it("takes its doctor's turn in the job queue, so another doctor's copies are not behind all of them (issue 40)", async () => {
    const queued = await t.app.db.select({ owner: jobs.ownerUserId }).from(jobs);
    expect(queued).toEqual([{ owner: doctor.userId }, { owner: doctor.userId }]);
  });

  it('is made by the job: a meshopt glTF with every triangle, far smaller than the STL', async () => {
    // The test's app runs jobs when told (main.ts starts the queue of a real process).
    await t.app.jobs.runDue();
    const answer = (await state(doctor.token, scanId)).json<{ state: string; bytes: number; triangles: number }>();
    expect(answer).toMatchObject({ state: 'ready', triangles: scanTriangles, error: null });
    const response = await mesh(doctor.token, scanId);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('model/gltf-binary');
    expect(response.rawPayload.byteLength).toBe(answer.bytes);
    expect(answer.bytes).toBeLessThan((84 + 50 * scanTriangles) / 8);
    await MeshoptDecoder.ready;
    const document = await decoder.readBinary(new Uint8Array(response.rawPayload));
    const [primitive] = document.getRoot().listMeshes()[0]!.listPrimitives();
    expect(
      document
        .getRoot()
        .listExtensionsUsed()
        .map((extension) => extension.extensionName),
    ).toEqual(expect.arrayContaining(['EXT_meshopt_compression', 'KHR_mesh_quantization']));
    expect(primitive!.getIndices()!.getCount() / 3).toBe(scanTriangles);
  });

  it('keeps the original the download, byte for byte', async () => {
    const download = await t.as(doctor.token, { method: 'GET', url: `/api/case/files/${scanId}/upper.stl` });
    expect(download.statusCode).toBe(200);
    expect(Buffer.compare(download.rawPayload, Buffer.from(scanStl(scanTriangles, 7)))).toBe(0);
  });

  it('reports a file named .stl that is no STL, once, with the reason: the viewer shows the original', async () => {
    const answer = (await state(doctor.token, fakeScanId)).json<{ state: string; error: string }>();
    expect(answer.state).toBe('failed');
    expect(answer.error).toMatch(/^not a valid STL file/);
    const response = await mesh(doctor.token, fakeScanId);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ message: 'No viewing copy could be made' });
    // Done, not retried: trying again would change nothing.
    expect((await t.app.db.select().from(jobs)).map((job) => job.state)).toEqual(['done', 'done']);
  });

  it('answers 404 to another doctor, as for the original, and for a file that is no STL', async () => {
    for (const attachmentId of [scanId, fakeScanId]) {
      expect((await state(other.token, attachmentId)).statusCode).toBe(404);
      expect((await mesh(other.token, attachmentId)).statusCode).toBe(404);
    }
    const photo = await state(doctor.token, photoId);
    expect(photo.statusCode).toBe(404);
    expect(photo.json()).toEqual({
      message: 'Viewing copy not found',
      code: 'notFound',
      params: { what: 'Viewing copy' },
    });
    expect((await state(doctor.token, 99_999_999)).statusCode).toBe(404);
  });

  it('lets staff with the Dashboard page read it', async () => {
    const response = await mesh(await t.adminToken(), scanId);
    expect(response.statusCode).toBe(200);
  });

  it('sweeps a stored copy that no row records (its job died before recording it), and keeps the recorded one', async () => {
    const [recorded] = await t.app.db.select().from(meshViews);
    const orphan = viewKeyOf('cases/0/never-recorded.stl');
    await t.app.storage.put(orphan, Buffer.from('glb'), 'model/gltf-binary');
    const swept = await sweepOrphanedCaseFiles({ db: t.app.db, storage: t.app.storage }, { graceSeconds: -60 });
    expect(swept).toBeGreaterThanOrEqual(1);
    expect(await t.app.storage.stat(orphan)).toBeNull();
    const ready = (await t.app.db.select().from(meshViews)).find((row) => row.state === 'ready')!;
    expect(await t.app.storage.stat(ready.viewKey!)).not.toBeNull();
    expect(recorded).toBeDefined();
  });
});

describe('viewing copies of a message STL', () => {
  const messageScan = Buffer.from(scanStl(5_000, 11));
  let messageScanId: number;
  let messagePhotoId: number;

  const messageState = (token: string, fileId: number) =>
    t.as(token, { method: 'GET', url: `/api/case/message-file-views/${fileId}` });
  const messageMesh = (token: string, fileId: number) =>
    t.as(token, { method: 'GET', url: `/api/case/message-file-views/${fileId}/mesh.glb` });
  const postMessage = async (token: string, files: { name: string; type: string; data: Buffer }[]) =>
    t.as(token, {
      method: 'POST',
      url: `/api/case/${caseId}/messages`,
      payload: caseForm({ text: 'The new upper scan' }, { files }),
    });
  const messageViews = () => t.app.db.select().from(meshViews).where(like(meshViews.sourceKey, 'messages/%'));
  const storedMessageFiles = async () => {
    let count = 0;
    for await (const _stored of t.app.storage.list('messages/')) count++;
    return count;
  };

  beforeAll(async () => {
    const response = await postMessage(doctor.token, [
      { name: 'new upper.stl', type: 'model/stl', data: messageScan },
      { name: 'bite.png', type: 'image/png', data: await makeImage() },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    // An attachment's url is /api/case/message_files/<file id>/<name>.
    const [scan, photo] = response
      .json<{ attachments: { url: string }[] }>()
      .attachments.map((file) => Number(file.url.split('/').at(-2)));
    messageScanId = scan!;
    messagePhotoId = photo!;
  });

  it('is queued with the message, pending and 409 until the job has run, then ready', async () => {
    expect((await messageState(doctor.token, messageScanId)).json()).toMatchObject({ state: 'pending' });
    expect((await messageMesh(doctor.token, messageScanId)).statusCode).toBe(409);
    await t.app.jobs.runDue();
    const answer = (await messageState(doctor.token, messageScanId)).json<{ bytes: number }>();
    expect(answer).toMatchObject({ state: 'ready', triangles: 5_000, error: null });
    const response = await messageMesh(doctor.token, messageScanId);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('model/gltf-binary');
    expect(response.rawPayload.byteLength).toBe(answer.bytes);
    await MeshoptDecoder.ready;
    const document = await decoder.readBinary(new Uint8Array(response.rawPayload));
    const [primitive] = document.getRoot().listMeshes()[0]!.listPrimitives();
    expect(primitive!.getIndices()!.getCount() / 3).toBe(5_000);
  });

  it('keeps the original the download, byte for byte', async () => {
    const download = await t.as(doctor.token, {
      method: 'GET',
      url: `/api/case/message_files/${messageScanId}/new%20upper.stl`,
    });
    expect(download.statusCode).toBe(200);
    expect(Buffer.compare(download.rawPayload, messageScan)).toBe(0);
  });

  it('answers 404 to another doctor, as for the original, and for a file that is no STL', async () => {
    expect((await messageState(other.token, messageScanId)).statusCode).toBe(404);
    expect((await messageMesh(other.token, messageScanId)).statusCode).toBe(404);
    expect(
      (await t.as(other.token, { method: 'GET', url: `/api/case/message_files/${messageScanId}/x.stl` })).statusCode,
    ).toBe(404);
    const photo = await messageState(doctor.token, messagePhotoId);
    expect(photo.statusCode).toBe(404);
    expect(photo.json()).toEqual({
      message: 'Viewing copy not found',
      code: 'notFound',
      params: { what: 'Viewing copy' },
    });
    expect((await messageState(doctor.token, 99_999_999)).statusCode).toBe(404);
  });

  it('lets the lab (staff with the Dashboard page) read it', async () => {
    expect((await messageMesh(await t.adminToken(), messageScanId)).statusCode).toBe(200);
  });

  it('goes with its message when the message is not stored: no row, no job, no file left', async () => {
    const viewsBefore = await messageViews();
    const jobsBefore = await t.app.db.select().from(jobs);
    const filesBefore = await storedMessageFiles();
    // The lab's first message mails the doctor: its transaction fails there, after the copy was queued.
    const enqueue = vi.spyOn(t.app.outbox, 'enqueue').mockRejectedValueOnce(new Error('connection lost'));
    try {
      const response = await postMessage(await t.adminToken(), [
        { name: 'again.stl', type: 'model/stl', data: messageScan },
      ]);
      expect(response.statusCode).toBe(500);
      expect(enqueue).toHaveBeenCalledOnce();
    } finally {
      enqueue.mockRestore();
    }
    expect(await messageViews()).toEqual(viewsBefore);
    expect(await t.app.db.select().from(jobs)).toHaveLength(jobsBefore.length);
    expect(await storedMessageFiles()).toBe(filesBefore);
  });
});
