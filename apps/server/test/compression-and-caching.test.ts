import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binaryStl, caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import { scanStl } from './helpers/dental-meshes.ts';
import { openEventStream } from './helpers/event-stream.ts';
import { makeImage } from './helpers/factories.ts';
import { planForm, planSummaryOf, stageFiles, uploadPlan, zipOf } from './helpers/plan-factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * What goes over the wire (docs/decisions/speed.md § On the wire): the web app's files as the
 * build compressed them, cached by whether their names are hashed; JSON answers of 1 KB or
 * more compressed per request; STL downloads compressed as they stream; other downloads, byte
 * ranges and event streams left as they are.
 */
const publicDir = path.resolve(import.meta.dirname, '../../web/public');
const script = `export const greeting = ${JSON.stringify('hello '.repeat(400))};\n`;
const page =
  '<!doctype html><html lang="en"><head><title>Aligner Portal</title></head><body><div id="root"></div></body></html>';

let t: TestApp;
let dist: string;
let address: Promise<string> | undefined;
/** The portal on a real socket (once), for what inject does not show: chunked bodies, HEAD. */
const listening = () => (address ??= t.app.listen({ port: 0, host: '127.0.0.1' }));

/** A built web app in miniature: index.html and one hashed script, each with its .br and .gz twins, and the real icons. */
async function writeDist(folder: string) {
  await mkdir(path.join(folder, 'assets'), { recursive: true });
  const files = { 'index.html': page, 'assets/index-AbC123xy.js': script };
  for (const [name, text] of Object.entries(files)) {
    await writeFile(path.join(folder, name), text);
    await writeFile(path.join(folder, `${name}.br`), brotliCompressSync(text));
    await writeFile(path.join(folder, `${name}.gz`), gzipSync(text));
  }
  for (const icon of ['favicon.ico', 'favicon.svg', 'manifest.webmanifest']) {
    await cp(path.join(publicDir, icon), path.join(folder, icon));
  }
}

beforeAll(async () => {
  dist = await mkdtemp(path.join(os.tmpdir(), 'portal-dist-'));
  await writeDist(dist);
  t = await createTestApp({ webDist: dist });
});
afterAll(async () => {
  await t.close();
  await rm(dist, { recursive: true, force: true });
});

describe('static files: compressed once at build, sent by Accept-Encoding', () => {
  it('sends the brotli twin to a browser that accepts br, the gzip twin to one that accepts only gzip, and Vary: Accept-Encoding', async () => {
    const url = '/assets/index-AbC123xy.js';
    const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gzip = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(script);

    const plain = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('keeps hashed assets for a year (immutable) and revalidates index.html on every visit, also for client-side routes', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-AbC123xy.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/', '/dashboard', '/index.html']) {
      const html = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(html.statusCode, url).toBe(200);
      expect(html.headers['content-type'], url).toMatch(/^text\/html/);
      expect(html.headers['cache-control'], url).toBe('no-cache');
      expect(html.headers['content-encoding'], url).toBe('br');
      expect(brotliDecompressSync(html.rawPayload).toString(), url).toBe(page);
    }
  });

  it('answers /favicon.ico with the icon, not the HTML page, and serves the web manifest', async () => {
    const icon = await t.app.inject({ method: 'GET', url: '/favicon.ico' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
    // An ICO file starts with reserved 0, type 1 (icon) and at least one image.
    expect([...icon.rawPayload.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
    expect(icon.rawPayload.readUInt16LE(4)).toBeGreaterThan(0);
    expect(icon.rawPayload.equals(await readFile(path.join(publicDir, 'favicon.ico')))).toBe(true);
    expect(icon.headers['cache-control']).toBe('public, max-age=86400');

    const manifest = await t.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    const body = JSON.parse(manifest.body) as { name: string; icons: { src: string }[] };
    expect(body.name).toBe('Aligner Portal');
    expect(body.icons.length).toBeGreaterThan(0);
  });
});

describe('API answers: JSON of 1 KB or more compressed per request', () => {
  it('compresses a large JSON answer (the country list) with brotli or gzip as accepted, with Vary', async () => {
    const url = '/api/country/get_countries_list';
    const plain = await t.app.inject({ method: 'GET', url });
    expect(plain.statusCode).toBe(200);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();

    const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gzip = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());
  });

  it('leaves a JSON answer under 1 KB as it is', async () => {
    const small = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(() => small.json()).not.toThrow();
  });

  it('does not decompress request bodies: a gzip-encoded JSON body is refused, not inflated (no zip bombs)', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ username: 'admin', password: 'x'.repeat(12) })),
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
  });
});

describe('downloads: an STL compressed as it streams, anything else and any byte range as stored', () => {
  // A dental scan, as the intraoral scanner writes it: binary STL, about half of it left by gzip.
  const scan = Buffer.from(scanStl(20_000, 3));
  const photo = makeImage('jpeg', 400);
  // A ZIP whose scan is stored, not deflated: compressible bytes, which are still sent as they are.
  const bite = zipOf([{ name: 'bite.stl', data: binaryStl(400), stored: true }]);
  let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
  const files = new Map<string, string>();

  beforeAll(async () => {
    doctor = await createCaseDoctor(t, { firstname: 'Wire', lastname: 'Ranger' });
    const submitted = await submitCase(
      t,
      doctor.token,
      caseForm(caseFields(doctor.clinicId, { impressionType: 'Digital Impression' }), {
        maxillaryScan: { data: scan, name: 'upper.stl' },
        rightBiteScan: { data: bite, name: 'bite.zip' },
        frontSmiling: { data: await photo, name: 'smile.jpg', type: 'image/jpeg' },
      }),
    );
    expect(submitted.statusCode, submitted.body).toBe(200);
    const { CaseId } = submitted.json<{ CaseId: number }>();
    const listed = await t.as(doctor.token, {
      method: 'GET',
      url: `/api/case/get_cases_attachments_by_case_id/${CaseId}`,
    });
    for (const entry of listed.json<{ FilePath: string; FileName: string }[]>())
      files.set(entry.FileName, entry.FilePath);
    const message = await t.as(doctor.token, {
      method: 'POST',
      url: `/api/case/${CaseId}/messages`,
      payload: caseForm({ text: 'The scan again' }, { files: { data: scan, name: 'again.stl', type: 'model/stl' } }),
    });
    files.set('again.stl', message.json<{ attachments: { url: string }[] }>().attachments[0]!.url);
    const admin = await t.adminToken();
    const plan = await uploadPlan(t, admin, CaseId, planForm(planSummaryOf(0, 1), stageFiles(0, 1)));
    expect(plan.statusCode, plan.body).toBe(200);
    const [version] = (await t.as(admin, { method: 'GET', url: `/api/case/${CaseId}/plans` })).json<
      { stages: { url: string }[] }[]
    >();
    files.set('lower_01.stl', version!.stages.at(-1)!.url);
  });

  const download = (name: string, headers: Record<string, string>, method: 'GET' | 'HEAD' = 'GET') =>
    t.as(doctor.token, { method, url: files.get(name)!, headers });

  it('gzips a whole STL for a client that accepts gzip: the original bytes once decompressed, Vary, no Content-Length, still never cached', async () => {
    const gzip = await download('upper.stl', { 'accept-encoding': 'gzip' });
    expect(gzip.statusCode).toBe(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/accept-encoding/i);
    expect(gzip.headers['content-length']).toBeUndefined();
    expect(gzip.headers['content-type']).toBe('application/octet-stream');
    expect(gzip.headers['content-disposition']).toMatch(/^attachment; filename="upper.stl"/);
    expect(gzip.headers['cache-control']).toBe('private, no-store');
    expect(gzip.rawPayload.length).toBeLessThan(scan.length * 0.6);
    expect(gunzipSync(gzip.rawPayload).equals(scan)).toBe(true);
  });

  it('prefers brotli where accepted, as the API answers do; a message file and a plan stage alike', async () => {
    const br = await download('upper.stl', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).equals(scan)).toBe(true);
    const message = await download('again.stl', { 'accept-encoding': 'gzip' });
    expect(message.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(message.rawPayload).equals(scan)).toBe(true);
    const stage = await download('lower_01.stl', { 'accept-encoding': 'br;q=0, gzip' });
    expect(stage.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(stage.rawPayload).equals(stageFiles(0, 1).at(-1)!.data)).toBe(true);
  });

  it('reaches a browser over a real connection as the original bytes; HEAD there has no Content-Length either', async () => {
    const url = `${await listening()}${files.get('upper.stl')}`;
    const headers = { authorization: `Bearer ${doctor.token}`, 'accept-encoding': 'gzip, deflate, br' };
    const fetched = await fetch(url, { headers });
    expect(fetched.headers.get('content-encoding')).toBe('br');
    expect(fetched.headers.get('transfer-encoding')).toBe('chunked');
    expect(Buffer.from(await fetched.arrayBuffer()).equals(scan)).toBe(true);
    const head = await fetch(url, { method: 'HEAD', headers });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-encoding')).toBe('br');
    expect(head.headers.get('content-length')).toBeNull();
  });

  it('answers HEAD with the same headers and no body', async () => {
    const head = await download('upper.stl', { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(head.headers.vary).toMatch(/accept-encoding/i);
    expect(head.headers['content-length']).toBeUndefined();
    expect(head.rawPayload.length).toBe(0);
  });

  it('sends a Range request the exact 206 slice of the stored bytes, uncompressed, to a client accepting br and gzip', async () => {
    const slice = await download('upper.stl', { 'accept-encoding': 'br, gzip', range: 'bytes=100-2099' });
    expect(slice.statusCode).toBe(206);
    expect(slice.headers['content-encoding']).toBeUndefined();
    expect(slice.headers['content-range']).toBe(`bytes 100-2099/${scan.length}`);
    expect(slice.rawPayload.equals(scan.subarray(100, 2100))).toBe(true);
  });

  it('sends a JPEG and a ZIP as stored, with their Content-Length, to a client accepting br and gzip', async () => {
    for (const [name, stored] of [
      ['smile.jpg', await photo],
      ['bite.zip', bite],
    ] as const) {
      const whole = await download(name, { 'accept-encoding': 'br, gzip' });
      expect(whole.statusCode, name).toBe(200);
      expect(whole.headers['content-encoding'], name).toBeUndefined();
      expect(Number(whole.headers['content-length']), name).toBe(stored.length);
      expect(whole.rawPayload.equals(stored), name).toBe(true);
    }
  });

  it('sends the STL as stored to a client that accepts no encoding: Content-Length and Repr-Digest', async () => {
    const refusals: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'gzip;q=0, br;q=0' },
    ];
    for (const headers of refusals) {
      const plain = await download('upper.stl', headers);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
      expect(Number(plain.headers['content-length'])).toBe(scan.length);
      expect(plain.headers['repr-digest']).toBe(`sha-256=:${createHash('sha256').update(scan).digest('base64')}:`);
      expect(plain.rawPayload.equals(scan)).toBe(true);
    }
  });
});

describe('event streams are not touched by compression', () => {
  it('streams GET /api/events as plain text/event-stream to a client accepting br and gzip', async () => {
    const base = await listening();
    const doctor = await createCaseDoctor(t, { firstname: 'Wire', lastname: 'Listener' });
    const response = await fetch(`${base}/api/events`, {
      headers: { accept: 'text/event-stream', 'accept-encoding': 'br, gzip', authorization: `Bearer ${doctor.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('content-encoding')).toBeNull();
    await response.body?.cancel();
    // The stream still delivers frames as they happen.
    const reader = await openEventStream(`${base}/api/events`, {
      'accept-encoding': 'br, gzip',
      authorization: `Bearer ${doctor.token}`,
    });
    expect(reader).toBeDefined();
    await reader.close();
  });
});
