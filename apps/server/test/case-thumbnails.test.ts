import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, caseAttachments } from '../src/db/schema.ts';
import { thumbnailKeyOf } from '../src/services/cases/case-thumbnails.ts';
import { binaryStl, caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import { createStaff, makeImage } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { waitUntil } from './helpers/wait-until.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/**
 * Issue 24, docs/decisions/uploads.md § Photo thumbnails and the gallery: a case photo's thumbnail is
 * a small WebP made once, with the photo's own access, and viewing it is not a download.
 */

let t: TestApp;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let otherDoctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let technician: Awaited<ReturnType<typeof createStaff>>;
let caseId: number;
let largePhoto: Buffer;
const ids = new Map<string, number>();

/** A 4000x3000 phone-sized photo of noise, which JPEG cannot make small. */
const noisePhoto = (width: number, height: number) =>
  sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .jpeg({ quality: 92 })
    .toBuffer();

beforeAll(async () => {
  t = await createTestApp();
  doctor = await createCaseDoctor(t);
  otherDoctor = await createCaseDoctor(t);
  technician = await createStaff(t, [1]);
  largePhoto = await noisePhoto(4000, 3000);
  // Taken with the phone on its side: stored 600x400, shown upright as 400x600.
  const sideways = await sharp(await noisePhoto(600, 400))
    .withMetadata({ orientation: 6 })
    .jpeg()
    .toBuffer();
  const response = await submitCase(
    t,
    doctor.token,
    caseForm(caseFields(doctor.clinicId), {
      frontSmiling: { name: 'smile.jpg', type: 'image/jpeg', data: largePhoto },
      front: { name: 'front.jpg', type: 'image/jpeg', data: sideways },
      opv: { name: 'opg.png', type: 'image/png', data: await makeImage('png', 64) },
      maxillaryScan: { name: 'upper.stl', type: 'model/stl', data: binaryStl(4) },
    }),
  );
  expect(response.statusCode, response.body).toBe(200);
  caseId = response.json<{ CaseId: number }>().CaseId;
  const files = await t.as(doctor.token, {
    method: 'GET',
    url: `/api/case/get_cases_attachments_by_case_id/${caseId}`,
  });
  // FilePath is /api/case/files/<attachment id>/<name>.
  for (const file of files.json<{ FilePath: string; FileName: string }[]>()) {
    ids.set(file.FileName, Number(file.FilePath.split('/').at(-2)));
  }
}, scaled(60_000));
afterAll(() => t?.close());

const thumbnail = (token: string, fileName: string) =>
  t.as(token, { method: 'GET', url: `/api/case/file-thumbnails/${ids.get(fileName)}` });

describe('GET /api/case/file-thumbnails/{attachmentId}', () => {
  it("is a WebP of at most 320 px on its long side, a small fraction of a phone photo's bytes", async () => {
    const response = await thumbnail(doctor.token, 'smile.jpg');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('image/webp');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    const metadata = await sharp(response.rawPayload).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['webp', 320, 240]);
    expect(metadata.exif).toBeUndefined();
    expect(largePhoto.length).toBeGreaterThan(2_000_000);
    expect(response.rawPayload.length).toBeLessThan(largePhoto.length / 20);
    console.log(`[figure] thumbnail of a 4000x3000 JPEG: ${largePhoto.length} -> ${response.rawPayload.length} bytes`);
  });

  it('is made once and kept in storage: the next answer is the same bytes', async () => {
    const first = await thumbnail(technician.token, 'opg.png');
    expect(first.statusCode, first.body).toBe(200);
    const [stored] = await t.app.db
      .select({ key: caseAttachments.storageKey })
      .from(caseAttachments)
      .where(eq(caseAttachments.attachmentId, ids.get('opg.png')!));
    expect(await t.app.storage.stat(thumbnailKeyOf(stored!.key))).toMatchObject({ size: first.rawPayload.length });
    const again = await thumbnail(doctor.token, 'opg.png');
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    // Never larger than the photo: a 64 px picture stays 64 px.
    expect((await sharp(again.rawPayload).metadata()).width).toBe(64);
  });

  it('turns a photo taken sideways upright (the EXIF orientation)', async () => {
    const response = await thumbnail(doctor.token, 'front.jpg');
    expect(response.statusCode, response.body).toBe(200);
    const { width, height } = await sharp(response.rawPayload).metadata();
    expect([width, height]).toEqual([213, 320]);
  });

  it('answers photos asked for together, each once', async () => {
    await Promise.all(
      ['smile.jpg', 'front.jpg', 'opg.png', 'smile.jpg', 'front.jpg'].map(async (name) =>
        expect((await thumbnail(doctor.token, name)).statusCode).toBe(200),
      ),
    );
  });

  it('is not a case.download in the audit log, as the original is', async () => {
    const attachmentId = ids.get('smile.jpg')!;
    const target = `case:${caseId}/attachment:${attachmentId}`;
    const downloads = () =>
      t.app.db
        .select({ action: auditLog.action })
        .from(auditLog)
        .where(and(eq(auditLog.action, 'case.download'), eq(auditLog.target, target)));
    expect((await thumbnail(doctor.token, 'smile.jpg')).statusCode).toBe(200);
    const original = await t.as(doctor.token, { method: 'GET', url: `/api/case/files/${attachmentId}/smile.jpg` });
    expect(original.statusCode).toBe(200);
    await waitUntil(async () => (await downloads()).length > 0, 'the download audited', {
      timeoutMs: 5000,
      everyMs: 50,
    });
    expect(await downloads()).toHaveLength(1);
    const thumbnailRows = await t.app.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.target, `attachment:${attachmentId}`));
    expect(thumbnailRows).toEqual([]);
  });

  it("is 404 for another doctor's photo, as the photo is", async () => {
    const response = await thumbnail(otherDoctor.token, 'smile.jpg');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'File not found', code: 'notFound', params: { what: 'File' } });
  });

  it('is 415 for a file that is no photo, saying so', async () => {
    const response = await thumbnail(doctor.token, 'upper.stl');
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ message: 'Only JPEG and PNG photos have thumbnails: download the file instead' });
  });

  it('is 400 for an id that is no id, 404 for one that names no file, 401 signed out', async () => {
    expect((await t.as(doctor.token, { method: 'GET', url: '/api/case/file-thumbnails/abc' })).statusCode).toBe(400);
    expect((await t.as(doctor.token, { method: 'GET', url: '/api/case/file-thumbnails/999999' })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/case/file-thumbnails/${ids.get('smile.jpg')}` })).statusCode,
    ).toBe(401);
  });
});
