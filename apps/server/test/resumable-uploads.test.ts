import { caseFileMessages } from '@portal/contract';
import { eq, inArray, sql } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { caseDrafts, uploads } from '../src/db/schema.ts';
import { sweepExpiredUploads } from '../src/services/uploads/uploads.ts';
import {
  asciiStl,
  binaryStl,
  caseFields,
  caseForm,
  createCaseDoctor,
  sha256,
  snapshot,
  submitCase,
} from './helpers/case-factories.ts';
import { makeImage } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

// The bound of its slowest test (the others need less), times the run's factor (e2e/helpers/test-time.ts).
vi.setConfig({ testTimeout: scaled(180_000) });

const mib = 1024 * 1024;
/** A binary STL of just over 256 MiB: 84 header bytes and 50 per triangle. */
const bigTriangles = 5_368_709;
const bigSize = 84 + 50 * bigTriangles;

let t: TestApp;
let base: string;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let other: Awaited<ReturnType<typeof createCaseDoctor>>;
beforeAll(async () => {
  t = await createTestApp({ maxUploadBytes: 300 * mib });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  doctor = await createCaseDoctor(t);
  other = await createCaseDoctor(t);
});
afterAll(() => t.close());

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Bytes this request put on the wire, headers included. */
  bytesSent: number;
}

/** One HTTP request over a real socket; `body` may be a stream, and `cut` destroys the request at that many body bytes. */
function send(
  method: string,
  url: string,
  headers: Record<string, string | number>,
  body?: Buffer | Readable,
  cut?: number,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}${url}`, { method, headers, agent: false });
    let settled = false;
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('end', () => {
        settled = true;
        const bytesSent = request.socket?.bytesWritten ?? 0;
        resolve({
          status: response.statusCode!,
          headers: response.headers,
          body: Buffer.concat(chunks).toString(),
          bytesSent,
        });
      });
    });
    let socket: Socket | undefined;
    request.once('socket', (opened) => (socket = opened));
    request.once('error', (error) => {
      if (settled) return;
      if (cut !== undefined)
        resolve({ status: 0, headers: {}, body: String(error), bytesSent: socket?.bytesWritten ?? 0 });
      else reject(error);
    });
    if (body instanceof Readable) {
      let written = 0;
      body.on('data', (chunk: Buffer) => {
        written += chunk.length;
        if (cut !== undefined && written >= cut) {
          body.destroy();
          request.destroy(new Error('connection cut'));
        }
      });
      body.pipe(request);
    } else request.end(body);
  });
}

const tus = (token: string | null, extra: Record<string, string | number> = {}) => ({
  'tus-resumable': '1.0.0',
  ...(token ? { authorization: `Bearer ${token}` } : {}),
  ...extra,
});

async function createUpload(token: string, size: number, fileName: string): Promise<string> {
  const answer = await send(
    'POST',
    '/api/uploads/tus',
    tus(token, { 'upload-length': size, 'upload-metadata': `filename ${Buffer.from(fileName).toString('base64')}` }),
  );
  expect(answer.status, answer.body).toBe(201);
  expect(answer.headers.location).toMatch(/^\/api\/uploads\/tus\/[0-9a-f]{32}$/);
  return answer.headers.location!.split('/').pop()!;
}

const patch = (
  token: string,
  uploadId: string,
  offset: number,
  chunk: Buffer | Readable,
  length?: number,
  cut?: number,
) =>
  send(
    'PATCH',
    `/api/uploads/tus/${uploadId}`,
    tus(token, {
      'upload-offset': offset,
      'content-type': 'application/offset+octet-stream',
      'content-length': length ?? (chunk as Buffer).length,
    }),
    chunk,
    cut,
  );

async function offsetOf(token: string, uploadId: string): Promise<number> {
  const answer = await send('HEAD', `/api/uploads/tus/${uploadId}`, tus(token));
  expect(answer.status).toBe(200);
  return Number(answer.headers['upload-offset']);
}

/** Creates and sends a whole small file in one PATCH. */
async function uploadFile(token: string, data: Buffer, fileName: string): Promise<string> {
  const uploadId = await createUpload(token, data.length, fileName);
  const answer = await patch(token, uploadId, 0, data);
  expect(answer.status, answer.body).toBe(204);
  return uploadId;
}

async function uploadRow(uploadId: string) {
  const [row] = await t.app.db.select().from(uploads).where(eq(uploads.uploadId, uploadId));
  return row;
}

async function storedUploadFiles(): Promise<string[]> {
  return readdir(path.join(t.dataDir, 'files', 'uploads')).catch(() => []);
}

/** The bytes of the big scan from `start` on, made as they are read: never all in memory. */
function bigScan(start: number): Readable {
  const pattern = Buffer.alloc(mib);
  for (let index = 0; index < mib; index++) pattern[index] = (index * 7 + (index >> 12)) % 251;
  const header = Buffer.alloc(84);
  header.write('resumable test scan', 0, 'latin1');
  header.writeUInt32LE(bigTriangles, 80);
  let position = start;
  return new Readable({
    read() {
      if (position >= bigSize) return this.push(null);
      const length = Math.min(mib - (position % mib), bigSize - position);
      const chunk = Buffer.from(pattern.subarray(position % mib, (position % mib) + length));
      if (position < 84) header.copy(chunk, 0, position, Math.min(84, position + length));
      position += length;
      this.push(chunk);
    },
  });
}

describe('tus 1.0.0 at /api/uploads/tus', () => {
  it('creates an upload, takes it in chunks, and answers its offset', async () => {
    const data = binaryStl(200);
    const uploadId = await createUpload(doctor.token, data.length, 'upper.stl');
    expect(await offsetOf(doctor.token, uploadId)).toBe(0);
    let offset = 0;
    for (const size of [3000, 4000, data.length - 7000]) {
      const answer = await patch(doctor.token, uploadId, offset, data.subarray(offset, offset + size));
      expect(answer.status, answer.body).toBe(204);
      offset += size;
      expect(Number(answer.headers['upload-offset'])).toBe(offset);
      expect(await offsetOf(doctor.token, uploadId)).toBe(offset);
    }
    const row = await uploadRow(uploadId);
    expect(row).toMatchObject({ userId: doctor.userId, fileName: 'upper.stl', declaredSize: data.length });
    expect(row!.completedAt).toBeInstanceOf(Date);
    expect(row!.sha256).toBe(sha256(data));
    expect(row!.contentKind).toBe('stl');
  });

  it('refuses a chunk at the wrong offset (409) and a body without the tus content type (400)', async () => {
    const uploadId = await createUpload(doctor.token, 100, 'a.stl');
    expect((await patch(doctor.token, uploadId, 10, Buffer.alloc(10))).status).toBe(409);
    const plain = await send(
      'PATCH',
      `/api/uploads/tus/${uploadId}`,
      tus(doctor.token, { 'upload-offset': 0, 'content-type': 'text/plain' }),
      Buffer.alloc(10),
    );
    expect(plain.status).toBe(400);
    expect(await offsetOf(doctor.token, uploadId)).toBe(0);
  });

  it('resumes a 256 MB scan cut at 50% and sends little more than the file in all', async () => {
    const uploadId = await createUpload(doctor.token, bigSize, 'full-arch.stl');
    const first = await patch(doctor.token, uploadId, 0, bigScan(0), bigSize, Math.floor(bigSize / 2));
    expect(first.status).toBe(0);
    // The server keeps what reached it before the cut, and says so once its write has settled.
    let offset = 0;
    await expect
      .poll(async () => (offset = await offsetOf(doctor.token, uploadId)), { timeout: scaled(20_000) })
      .toBeGreaterThan(bigSize * 0.3);
    expect(offset).toBeLessThanOrEqual(bigSize / 2 + 2 * mib);
    const rest = await patch(doctor.token, uploadId, offset, bigScan(offset), bigSize - offset);
    expect(rest.status, rest.body).toBe(204);
    expect(Number(rest.headers['upload-offset'])).toBe(bigSize);

    const hash = createHash('sha256');
    for await (const chunk of bigScan(0)) hash.update(chunk as Buffer);
    const row = await uploadRow(uploadId);
    expect(row!.sha256).toBe(hash.digest('hex'));
    expect(row!.contentKind).toBe('stl');
    const sent = first.bytesSent + rest.bytesSent;
    const percent = (sent / bigSize) * 100;
    console.log(
      `[figure] resumable upload: ${bigSize} byte scan cut at 50% (server kept ${offset}), ${sent} bytes sent in all = ${percent.toFixed(2)}% of the file (goal < 110%)`,
    );
    expect(percent).toBeLessThan(110);
  });

  it('shows, resumes and deletes an upload only for its creator: 404 for another user, 401 anonymous', async () => {
    const uploadId = await createUpload(doctor.token, 10, 'mine.stl');
    const url = `/api/uploads/tus/${uploadId}`;
    expect((await send('HEAD', url, tus(other.token))).status).toBe(404);
    expect((await patch(other.token, uploadId, 0, Buffer.alloc(10))).status).toBe(404);
    expect((await send('DELETE', url, tus(other.token))).status).toBe(404);
    expect((await send('HEAD', url, tus(null))).status).toBe(401);
    expect((await send('DELETE', url, tus(null))).status).toBe(401);
    expect((await send('POST', '/api/uploads/tus', tus(null, { 'upload-length': 10 }))).status).toBe(401);
    // The session cookie reads, but never changes anything.
    const cookie = { cookie: `token=${doctor.token}` };
    const cookiePatch = await send(
      'PATCH',
      url,
      {
        ...tus(null, cookie),
        'upload-offset': 0,
        'content-type': 'application/offset+octet-stream',
        'content-length': 10,
      },
      Buffer.alloc(10),
    );
    expect(cookiePatch.status).toBe(401);
    expect(await offsetOf(doctor.token, uploadId)).toBe(0);
    expect((await send('HEAD', `/api/uploads/tus/${'0'.repeat(32)}`, tus(doctor.token))).status).toBe(404);
  });

  it('cancels: DELETE removes the bytes and the row', async () => {
    const uploadId = await createUpload(doctor.token, 100, 'cancel.stl');
    await patch(doctor.token, uploadId, 0, Buffer.alloc(40, 1));
    expect(await storedUploadFiles()).toContain(uploadId);
    const answer = await send('DELETE', `/api/uploads/tus/${uploadId}`, tus(doctor.token));
    expect(answer.status).toBe(204);
    expect(await uploadRow(uploadId)).toBeUndefined();
    expect(await storedUploadFiles()).not.toContain(uploadId);
    expect((await send('HEAD', `/api/uploads/tus/${uploadId}`, tus(doctor.token))).status).toBe(404);
  });

  it('refuses a declared size past MAX_UPLOAD_BYTES (413), an undeclared one and a nameless one (400)', async () => {
    const before = (await storedUploadFiles()).length;
    const tooLarge = await send('POST', '/api/uploads/tus', tus(doctor.token, { 'upload-length': 300 * mib + 1 }));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toContain(caseFileMessages.tooLarge);
    const deferred = await send('POST', '/api/uploads/tus', tus(doctor.token, { 'upload-defer-length': 1 }));
    expect(deferred.status).toBe(400);
    const nameless = await send('POST', '/api/uploads/tus', tus(doctor.token, { 'upload-length': 10 }));
    expect(nameless.status).toBe(400);
    expect((await storedUploadFiles()).length).toBe(before);
  });

  it('answers an absurd Upload-Length with a plain 413 (no SQL), a non-number with 400, and keeps CORS closed (issue 20)', async () => {
    const rowsBefore = await t.app.db.$count(uploads);
    const named = { 'upload-metadata': `filename ${Buffer.from('huge.stl').toString('base64')}` };
    const huge = await send(
      'POST',
      '/api/uploads/tus',
      tus(doctor.token, { ...named, 'upload-length': '100000000000000000000', origin: 'https://elsewhere.example' }),
    );
    expect(huge.status, huge.body).toBe(413);
    expect(huge.body).toContain(caseFileMessages.tooLarge);
    expect(huge.body).not.toMatch(/insert|select|uploads|params/i);
    const words = await send('POST', '/api/uploads/tus', tus(doctor.token, { ...named, 'upload-length': '12 bytes' }));
    expect(words.status, words.body).toBe(400);
    expect(await t.app.db.$count(uploads)).toBe(rowsBefore);

    // tus answers carry no Access-Control-* header, for any origin, as the portal's other routes.
    const created = await send(
      'POST',
      '/api/uploads/tus',
      tus(doctor.token, { ...named, 'upload-length': 10, origin: 'https://elsewhere.example' }),
    );
    expect(created.status, created.body).toBe(201);
    const offset = await send(
      'HEAD',
      created.headers.location!,
      tus(doctor.token, { origin: 'https://elsewhere.example' }),
    );
    for (const answer of [huge, created, offset]) {
      expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    }
  });

  it('answers OPTIONS with the tus discovery headers (204), to anyone, without opening CORS', async () => {
    const discovery = await send('OPTIONS', '/api/uploads/tus', { origin: 'https://elsewhere.example' });
    expect(discovery.status, discovery.body).toBe(204);
    expect(discovery.headers['tus-version']).toBe('1.0.0');
    expect(String(discovery.headers['tus-extension']).split(',')).toEqual(
      expect.arrayContaining(['creation', 'termination']),
    );
    expect(discovery.headers['tus-max-size']).toBe(String(300 * mib));
    expect(Object.keys(discovery.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });
});

describe('what one user may hold in uploads no case has used (issue 20)', () => {
  it('refuses uploads past UPLOADS_PER_USER (429) and UPLOAD_BYTES_PER_USER (413), sent at once too, recording nothing', async () => {
    const limited = await createTestApp({ maxUploadBytes: 4000, uploadsPerUser: 5, uploadBytesPerUser: 10_000 });
    try {
      const [first, second] = [await createCaseDoctor(limited), await createCaseDoctor(limited)];
      const create = (token: string, size: number) =>
        limited.as(token, {
          method: 'POST',
          url: '/api/uploads/tus',
          headers: tus(null, {
            'upload-length': size,
            'upload-metadata': `filename ${Buffer.from('scan.stl').toString('base64')}`,
          }) as Record<string, string>,
        });
      const held = async (userId: number) =>
        limited.app.db.$count(uploads, sql`${uploads.userId} = ${userId} and ${uploads.claimedByCaseId} is null`);

      const many = await Promise.all(Array.from({ length: 8 }, () => create(first.token, 100)));
      expect(many.map((answer) => answer.statusCode).sort()).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
      const refused = many.find((answer) => answer.statusCode === 429)!;
      expect(refused.body).toBe(
        `You already have 5 uploads that no case has used: submit a case or cancel some first\n`,
      );
      expect(await held(first.userId)).toBe(5);

      // Bytes: 4000 + 4000 fit in 10,000; a third does not, however they race.
      const large = await Promise.all(Array.from({ length: 3 }, () => create(second.token, 4000)));
      expect(large.map((answer) => answer.statusCode).sort()).toEqual([201, 201, 413]);
      expect(large.find((answer) => answer.statusCode === 413)!.body).toMatch(/more than 10000 bytes/);
      expect(await held(second.userId)).toBe(2);

      // Cancelling one makes room again.
      const location = many.find((answer) => answer.statusCode === 201)!.headers.location as string;
      const cancelled = await limited.as(first.token, {
        method: 'DELETE',
        url: location,
        headers: tus(null) as Record<string, string>,
      });
      expect(cancelled.statusCode).toBe(204);
      expect((await create(first.token, 100)).statusCode).toBe(201);
    } finally {
      await limited.close();
    }
  });
});

describe('POST /api/case/add naming finished uploads', () => {
  it('makes the case from uploads: attachments downloadable with the same SHA-256, uploads claimed', async () => {
    const scan = binaryStl(30);
    const lower = asciiStl();
    const photo = await makeImage('png', 60);
    const extra = await makeImage('jpeg', 61);
    const named = {
      maxillaryScan: await uploadFile(doctor.token, scan, 'upper.stl'),
      mandibularScan: await uploadFile(doctor.token, lower, 'lower.stl'),
      frontSmiling: await uploadFile(doctor.token, photo, 'smile.png'),
      otherFiles: [await uploadFile(doctor.token, extra, 'extra.jpg')],
    };
    const fields = caseFields(doctor.clinicId, {
      impressionType: 'Digital Impression',
      uploads: JSON.stringify(named),
    });
    const response = await submitCase(
      t,
      doctor.token,
      caseForm(fields, { otherFiles: { data: photo, name: 'sent.png' } }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const caseId = response.json<{ CaseId: number }>().CaseId;

    const list = await t.as(doctor.token, {
      method: 'GET',
      url: `/api/case/get_cases_attachments_by_case_id/${caseId}`,
    });
    const attachments = list.json<{ FileName: string; FilePath: string; FileType: string; Sha256: string }[]>();
    const expected: Record<string, Buffer> = {
      'upper.stl': scan,
      'lower.stl': lower,
      'smile.png': photo,
      'extra.jpg': extra,
      'sent.png': photo,
    };
    expect(attachments.map((file) => file.FileName).sort()).toEqual(Object.keys(expected).sort());
    for (const file of attachments) {
      const download = await t.as(doctor.token, { method: 'GET', url: file.FilePath });
      expect(download.statusCode).toBe(200);
      expect(sha256(download.rawPayload)).toBe(sha256(expected[file.FileName]!));
      expect(file.Sha256).toBe(sha256(expected[file.FileName]!));
    }
    for (const uploadId of [named.maxillaryScan, named.frontSmiling]) {
      expect((await uploadRow(uploadId))!.claimedByCaseId).toBe(caseId);
      // Claimed: no longer the tus client's to resume or delete.
      expect((await send('HEAD', `/api/uploads/tus/${uploadId}`, tus(doctor.token))).status).toBe(404);
      expect((await send('DELETE', `/api/uploads/tus/${uploadId}`, tus(doctor.token))).status).toBe(404);
    }

    // A claimed upload cannot make a second case.
    const before = await snapshot(t);
    const again = await submitCase(
      t,
      doctor.token,
      caseForm(caseFields(doctor.clinicId, { uploads: JSON.stringify({ maxillaryScan: named.maxillaryScan }) })),
    );
    expect(again.statusCode).toBe(400);
    expect(again.json<{ fieldErrors: Record<string, string> }>().fieldErrors.maxillaryScan).toBe('Upload not found');
    expect(await snapshot(t)).toEqual(before);
  });

  it("refuses wrong content (a photo that does not decode too), another user's upload, an unfinished one and bad JSON before the case is made, leaving nothing", async () => {
    const fake = await uploadFile(doctor.token, await makeImage('png', 20), 'scan.stl');
    expect((await uploadRow(fake))!.contentKind).toBeNull();
    const photoAsScan = await uploadFile(doctor.token, await makeImage('png', 21), 'photo.png');
    // JPEG magic bytes and then a web page: its first bytes pass, decoding does not.
    const jpegThenHtml = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('<html>hi</html>')]);
    const fakePhoto = await uploadFile(doctor.token, jpegThenHtml, 'smile.jpg');
    expect((await uploadRow(fakePhoto))!.contentKind).toBeNull();
    const othersScan = await uploadFile(other.token, binaryStl(5), 'theirs.stl');
    const unfinished = await createUpload(doctor.token, 1000, 'half.stl');
    await patch(doctor.token, unfinished, 0, binaryStl(5).subarray(0, 100));
    const cases: [Record<string, unknown>, string, string][] = [
      [{ maxillaryScan: fake }, 'maxillaryScan', caseFileMessages.scanType],
      [{ mandibularScan: photoAsScan }, 'mandibularScan', caseFileMessages.scanType],
      [{ maxillaryScan: othersScan }, 'maxillaryScan', 'Upload not found'],
      [{ maxillaryScan: unfinished }, 'maxillaryScan', 'The upload is not finished yet'],
      [{ frontSmiling: fake }, 'frontSmiling', caseFileMessages.photoType],
      [{ frontSmiling: fakePhoto }, 'frontSmiling', caseFileMessages.photoType],
      [{ nose: fake }, 'uploads', 'uploads must be a JSON object naming finished uploads by file field'],
    ];
    for (const [named, field, message] of cases) {
      const before = await snapshot(t);
      const response = await submitCase(
        t,
        doctor.token,
        caseForm(caseFields(doctor.clinicId, { uploads: JSON.stringify(named) })),
      );
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json<{ fieldErrors: Record<string, string> }>().fieldErrors[field]).toBe(message);
      expect(await snapshot(t)).toEqual(before);
    }
    const malformed = await submitCase(
      t,
      doctor.token,
      caseForm(caseFields(doctor.clinicId, { uploads: '{not json' })),
    );
    expect(malformed.statusCode).toBe(400);
    for (const uploadId of [fake, fakePhoto, photoAsScan, othersScan, unfinished]) {
      expect((await uploadRow(uploadId))!.claimedByCaseId).toBeNull();
    }
    // One file per single field: bytes and an upload for the same field are refused.
    const scan = await uploadFile(doctor.token, binaryStl(5), 'both.stl');
    const both = await submitCase(
      t,
      doctor.token,
      caseForm(caseFields(doctor.clinicId, { uploads: JSON.stringify({ maxillaryScan: scan }) }), {
        maxillaryScan: { data: binaryStl(6), name: 'sent.stl' },
      }),
    );
    expect(both.statusCode).toBe(400);
    expect(both.json<{ fieldErrors: Record<string, string> }>().fieldErrors.maxillaryScan).toBe(
      'Only one file may be sent here',
    );
  });
});

describe('expiry of unused uploads', () => {
  it('removes uploads no case used after 24 hours (bytes and row), and keeps claimed ones', async () => {
    const stale = await uploadFile(doctor.token, binaryStl(3), 'stale.stl');
    const fresh = await uploadFile(doctor.token, binaryStl(4), 'fresh.stl');
    const used = await uploadFile(doctor.token, binaryStl(6), 'used.stl');
    const made = await submitCase(
      t,
      doctor.token,
      caseForm(caseFields(doctor.clinicId, { uploads: JSON.stringify({ maxillaryScan: used }) })),
    );
    expect(made.statusCode, made.body).toBe(200);
    await t.app.db
      .update(uploads)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(sql`${uploads.uploadId} in (${stale}, ${used})`);

    const swept = await sweepExpiredUploads(t.app);
    expect(swept).toBe(1);
    expect(await uploadRow(stale)).toBeUndefined();
    const files = await storedUploadFiles();
    expect(files.filter((name) => name.startsWith(stale))).toEqual([]);
    expect(files.filter((name) => name.startsWith(fresh)).sort()).toEqual([fresh, `${fresh}.json`]);
    // The case's bytes stay; tus's bookkeeping of the claimed upload goes.
    expect(files.filter((name) => name.startsWith(used))).toEqual([used]);
    expect(await uploadRow(used)).toBeDefined();
    const caseId = made.json<{ CaseId: number }>().CaseId;
    const list = await t.as(doctor.token, {
      method: 'GET',
      url: `/api/case/get_cases_attachments_by_case_id/${caseId}`,
    });
    const download = await t.as(doctor.token, { method: 'GET', url: list.json<{ FilePath: string }[]>()[0]!.FilePath });
    expect(sha256(download.rawPayload)).toBe(sha256(binaryStl(6)));
  });
});

describe('drafts keep their uploads (docs/decisions/case-form.md § Drafts)', () => {
  const drafts = '/api/case/drafts';
  const ageAll = (...uploadIds: string[]) =>
    t.app.db
      .update(uploads)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(inArray(uploads.uploadId, uploadIds));
  type DraftAnswer = {
    files: Record<string, string | string[]>;
    uploads: { uploadId: string; fileName: string; size: number; finished: boolean }[];
  };
  const readDraft = async (draftId: number) => {
    const answer = await t.as(doctor.token, { method: 'GET', url: `${drafts}/${draftId}` });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<DraftAnswer>();
  };

  it("answers a draft's uploads with name, size and state, keeps them past 24 hours and resumable, and never another user's", async () => {
    const scan = binaryStl(12);
    const finished = await uploadFile(doctor.token, scan, 'draft-upper.stl');
    const lower = binaryStl(14);
    const unfinished = await createUpload(doctor.token, lower.length, 'draft-lower.stl');
    expect((await patch(doctor.token, unfinished, 0, lower.subarray(0, 100))).status).toBe(204);
    const othersUpload = await uploadFile(other.token, binaryStl(2), 'not-yours.stl');

    const created = await t.as(doctor.token, {
      method: 'POST',
      url: drafts,
      payload: {
        fields: { firstname: 'Draft' },
        files: { maxillaryScan: finished, mandibularScan: unfinished, otherFiles: [othersUpload] },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const { draftId } = created.json<{ draftId: number }>();
    const draft = await readDraft(draftId);
    expect(draft.files).toEqual({ maxillaryScan: finished, mandibularScan: unfinished });
    expect(draft.uploads.sort((a, b) => a.fileName.localeCompare(b.fileName))).toEqual([
      { uploadId: unfinished, fileName: 'draft-lower.stl', size: lower.length, finished: false },
      { uploadId: finished, fileName: 'draft-upper.stl', size: scan.length, finished: true },
    ]);
    expect((await uploadRow(othersUpload))!.claimedByDraftId).toBeNull();

    // A day later the sweep takes the other user's unused upload, not the draft's two.
    await ageAll(finished, unfinished, othersUpload);
    await sweepExpiredUploads(t.app);
    expect(await uploadRow(othersUpload)).toBeUndefined();
    expect((await uploadRow(finished))!.claimedByDraftId).toBe(draftId);
    // The draft's unfinished upload still resumes where it stopped.
    expect(await offsetOf(doctor.token, unfinished)).toBe(100);
    expect((await patch(doctor.token, unfinished, 100, lower.subarray(100))).status).toBe(204);
    expect((await readDraft(draftId)).uploads.every((upload) => upload.finished)).toBe(true);

    // Saved without the lower scan: that upload is let go and expires; the other stays.
    const saved = await t.as(doctor.token, {
      method: 'PUT',
      url: `${drafts}/${draftId}`,
      payload: { fields: { firstname: 'Draft' }, files: { maxillaryScan: finished } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await sweepExpiredUploads(t.app);
    expect(await uploadRow(unfinished)).toBeUndefined();
    expect((await uploadRow(finished))!.claimedByDraftId).toBe(draftId);

    // Submitting the draft hands its upload to the case and removes the draft.
    const made = await submitCase(
      t,
      doctor.token,
      caseForm(caseFields(doctor.clinicId, { draftId, uploads: JSON.stringify({ maxillaryScan: finished }) })),
    );
    expect(made.statusCode, made.body).toBe(200);
    const row = await uploadRow(finished);
    expect(row!.claimedByCaseId).toBe(made.json<{ CaseId: number }>().CaseId);
    expect(row!.claimedByDraftId).toBeNull();
    expect((await t.as(doctor.token, { method: 'GET', url: `${drafts}/${draftId}` })).statusCode).toBe(404);
  });

  it('lets the uploads of a draft not saved for a week expire (bytes and row), as unused ones do (issue 20)', async () => {
    const kept = await uploadFile(doctor.token, binaryStl(8), 'recent-draft.stl');
    const forgotten = await uploadFile(doctor.token, binaryStl(9), 'old-draft.stl');
    const draftOf = async (uploadId: string) => {
      const created = await t.as(doctor.token, {
        method: 'POST',
        url: drafts,
        payload: { fields: {}, files: { maxillaryScan: uploadId } },
      });
      expect(created.statusCode, created.body).toBe(200);
      return created.json<{ draftId: number }>().draftId;
    };
    await draftOf(kept);
    const oldDraft = await draftOf(forgotten);
    await ageAll(kept, forgotten);
    await t.app.db
      .update(caseDrafts)
      .set({ updatedAt: sql`now() - interval '8 days'` })
      .where(eq(caseDrafts.draftId, oldDraft));

    await sweepExpiredUploads(t.app);
    expect(await uploadRow(forgotten)).toBeUndefined();
    expect((await storedUploadFiles()).filter((name) => name.startsWith(forgotten))).toEqual([]);
    expect((await readDraft(oldDraft)).uploads).toEqual([]);
    expect((await uploadRow(kept))!.claimedByDraftId).not.toBeNull();
  });

  it("lets a deleted draft's uploads go, and a cancelled one leaves the draft's list", async () => {
    const kept = await uploadFile(doctor.token, binaryStl(5), 'kept-then-dropped.stl');
    const cancelled = await uploadFile(doctor.token, binaryStl(7), 'cancelled.stl');
    const created = await t.as(doctor.token, {
      method: 'POST',
      url: drafts,
      payload: { fields: {}, files: { maxillaryScan: kept, mandibularScan: cancelled } },
    });
    const { draftId } = created.json<{ draftId: number }>();
    // Cancelling an upload a draft names removes it (bytes and row); the draft no longer shows it.
    expect((await send('DELETE', `/api/uploads/tus/${cancelled}`, tus(doctor.token))).status).toBe(204);
    expect(await uploadRow(cancelled)).toBeUndefined();
    expect((await readDraft(draftId)).uploads.map((upload) => upload.uploadId)).toEqual([kept]);

    const removed = await t.as(doctor.token, { method: 'DELETE', url: `${drafts}/${draftId}` });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await uploadRow(kept))!.claimedByDraftId).toBeNull();
    await ageAll(kept);
    await sweepExpiredUploads(t.app);
    expect(await uploadRow(kept)).toBeUndefined();
    expect((await storedUploadFiles()).filter((name) => name.startsWith(kept))).toEqual([]);
  });
});
