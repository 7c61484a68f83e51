import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploads } from '../src/db/schema.ts';
import { S3Storage } from '../src/storage/s3-storage.ts';
import type { Storage } from '../src/storage/storage.ts';
import { caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import { s3rverCredentials, startS3rver } from './helpers/s3rver.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * tus at /api/uploads/tus on the S3 store (@tus/s3-store), against s3rver: the same upload,
 * resume and cancel as on the file store (resumable-uploads.test.ts), with the bytes in the
 * bucket under uploads/ (docs/decisions/uploads.md § Resumable uploads).
 */

const bucket = 'tus-bucket';
const MiB = 1024 * 1024;

let s3: Awaited<ReturnType<typeof startS3rver>>;
let storage: S3Storage;
let t: TestApp;
let base: string;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
beforeAll(async () => {
  s3 = await startS3rver(bucket);
  const config = { bucket, endpoint: s3.endpoint, region: 'us-east-1', ...s3rverCredentials };
  storage = new S3Storage(config);
  t = await createTestApp({ storage, s3: config });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  doctor = await createCaseDoctor(t);
});
afterAll(async () => {
  await t?.close();
  storage?.close();
  await s3?.stop();
});

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** One request over a real socket; `cut` destroys it after that many body bytes. */
function send(
  method: string,
  url: string,
  headers: Record<string, string | number>,
  body?: Buffer,
  cut?: number,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}${url}`, { method, headers, agent: false });
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('end', () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString() }),
      );
    });
    request.once('error', (error) =>
      cut === undefined ? reject(error) : resolve({ status: 0, headers: {}, body: '' }),
    );
    if (body && cut !== undefined) {
      request.write(body.subarray(0, cut), () => setTimeout(() => request.destroy(), 200));
    } else request.end(body);
  });
}

const tus = (extra: Record<string, string | number> = {}) => ({
  'tus-resumable': '1.0.0',
  authorization: `Bearer ${doctor.token}`,
  ...extra,
});

async function createUpload(size: number, fileName: string): Promise<string> {
  const answer = await send(
    'POST',
    '/api/uploads/tus',
    tus({ 'upload-length': size, 'upload-metadata': `filename ${Buffer.from(fileName).toString('base64')}` }),
  );
  expect(answer.status, answer.body).toBe(201);
  return answer.headers.location!.split('/').pop()!;
}

const patch = (uploadId: string, offset: number, chunk: Buffer, cut?: number) =>
  send(
    'PATCH',
    `/api/uploads/tus/${uploadId}`,
    tus({ 'upload-offset': offset, 'content-type': 'application/offset+octet-stream', 'content-length': chunk.length }),
    chunk,
    cut,
  );

async function offsetOf(uploadId: string): Promise<number> {
  const answer = await send('HEAD', `/api/uploads/tus/${uploadId}`, tus());
  expect(answer.status).toBe(200);
  return Number(answer.headers['upload-offset']);
}

/** The bucket's keys of one upload: its bytes and tus's `.info` and `.part` objects. */
async function keysOf(store: Storage, uploadId: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const entry of store.list('uploads'))
    if (entry.key.startsWith(`uploads/${uploadId}`)) keys.push(entry.key);
  return keys.sort();
}

/** A binary STL of `size` bytes (84-byte header, 50 bytes per facet). */
function scanOf(triangles: number): Buffer {
  const data = Buffer.alloc(84 + 50 * triangles);
  for (let index = 84; index < data.length; index++) data[index] = (index * 13) % 251;
  data.write('s3 tus scan', 0, 'latin1');
  data.writeUInt32LE(triangles, 80);
  return data;
}

describe('tus on the S3 store', () => {
  it('takes a 20 MB scan in parts across a cut connection, resumes at the stored offset, and the case serves it from the bucket', async () => {
    const scan = scanOf(400_000); // 20,000,084 bytes: two 8 MiB parts and a last one
    const uploadId = await createUpload(scan.length, 'bucket-upper.stl');

    // 10 MiB sent, then the connection is cut: what reached the store stays.
    await patch(uploadId, 0, scan, 10 * MiB);
    const stored = await offsetOf(uploadId);
    expect(stored).toBeGreaterThan(0);
    expect(stored).toBeLessThanOrEqual(10 * MiB);

    const rest = await patch(uploadId, stored, scan.subarray(stored));
    expect(rest.status, rest.body).toBe(204);
    expect(await offsetOf(uploadId)).toBe(scan.length);

    const made = await submitCase(
      t,
      doctor.token,
      caseForm(caseFields(doctor.clinicId, { uploads: JSON.stringify({ maxillaryScan: uploadId }) })),
    );
    expect(made.statusCode, made.body).toBe(200);
    const caseId = made.json<{ CaseId: number }>().CaseId;
    const list = await t.as(doctor.token, {
      method: 'GET',
      url: `/api/case/get_cases_attachments_by_case_id/${caseId}`,
    });
    const [attachment] = list.json<{ FilePath: string; Sha256: string }[]>();
    expect(attachment!.Sha256).toBe(sha256(scan));
    const download = await t.as(doctor.token, { method: 'GET', url: attachment!.FilePath });
    expect(download.statusCode).toBe(200);
    expect(sha256(download.rawPayload)).toBe(sha256(scan));
    // The bytes are the bucket's object under uploads/, not a copy in the data folder.
    expect(await keysOf(storage, uploadId)).toContain(`uploads/${uploadId}`);
  });

  it('cancels: DELETE removes the multipart upload, its objects and the row', async () => {
    const scan = scanOf(200_000);
    const uploadId = await createUpload(scan.length, 'bucket-cancel.stl');
    expect((await patch(uploadId, 0, scan.subarray(0, 9 * MiB))).status).toBe(204);
    expect(await offsetOf(uploadId)).toBe(9 * MiB);
    expect(await keysOf(storage, uploadId)).toEqual([`uploads/${uploadId}.info`, `uploads/${uploadId}.part`]);

    const answer = await send('DELETE', `/api/uploads/tus/${uploadId}`, tus());
    expect(answer.status, answer.body).toBe(204);
    expect((await send('HEAD', `/api/uploads/tus/${uploadId}`, tus())).status).toBe(404);
    expect(await keysOf(storage, uploadId)).toEqual([]);
    expect((await t.app.db.select().from(uploads).where(eq(uploads.uploadId, uploadId))).length).toBe(0);
  });
});
