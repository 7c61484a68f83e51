import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binaryStl, caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import { openEventStream } from './helpers/event-stream.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * What goes over the wire (docs/decisions.md § On the wire): the web app's files as the
 * build compressed them, cached by whether their names are hashed; JSON answers of 1 KB or
 * more compressed per request; downloads, byte ranges and event streams left as they are.
 */
const publicDir = path.resolve(import.meta.dirname, '../../web/public');
const script = `export const greeting = ${JSON.stringify('hello '.repeat(400))};\n`;
const page =
  '<!doctype html><html lang="en"><head><title>Aligner Portal</title></head><body><div id="root"></div></body></html>';

let t: TestApp;
let dist: string;

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

describe('downloads and event streams are not touched by compression', () => {
  it('sends a stored file whole with its Content-Length, and a Range request as the exact 206 slice, even to a client accepting br and gzip', async () => {
    const doctor = await createCaseDoctor(t, { firstname: 'Wire', lastname: 'Ranger' });
    // A highly compressible scan: a compressor would gladly shrink it.
    const scan = binaryStl(200);
    const submitted = await submitCase(
      t,
      doctor.token,
      caseForm(caseFields(doctor.clinicId, { impressionType: 'Digital Impression' }), {
        maxillaryScan: { data: scan, name: 'upper.stl' },
      }),
    );
    expect(submitted.statusCode, submitted.body).toBe(200);
    const { CaseId } = submitted.json<{ CaseId: number }>();
    const files = await t.as(doctor.token, {
      method: 'GET',
      url: `/api/case/get_cases_attachments_by_case_id/${CaseId}`,
    });
    const file = files
      .json<{ FilePath: string; FileName: string }[]>()
      .find((entry) => entry.FileName === 'upper.stl')!;
    const headers = { 'accept-encoding': 'br, gzip' };

    const whole = await t.as(doctor.token, { method: 'GET', url: file.FilePath, headers });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(Number(whole.headers['content-length'])).toBe(scan.length);
    expect(whole.rawPayload.equals(scan)).toBe(true);

    const slice = await t.as(doctor.token, {
      method: 'GET',
      url: file.FilePath,
      headers: { ...headers, range: 'bytes=100-2099' },
    });
    expect(slice.statusCode).toBe(206);
    expect(slice.headers['content-encoding']).toBeUndefined();
    expect(slice.headers['content-range']).toBe(`bytes 100-2099/${scan.length}`);
    expect(slice.rawPayload.equals(scan.subarray(100, 2100))).toBe(true);
  });

  it('streams GET /api/events as plain text/event-stream to a client accepting br and gzip', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
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
