/**
 * Upload benchmark, on loopback, each path beside a baseline doing the same work in the same run:
 * - multipart: one case with a large binary STL through POST /api/case/add, beside bare
 *   Fastify + @fastify/multipart streaming the same file to disk. Goals (issue 11): at least
 *   90% of it, portal RSS growth under 64 MB.
 * - resumable: the same STL as one tus PATCH at /api/uploads/tus, beside a bare Node server
 *   writing the same raw bytes to disk with SHA-256. Goal: at least 80% of it.
 * - 4 concurrent uploads through each path, aggregate MB/s, beside the same baselines 4 at a time.
 *   BENCH_UPLOAD_MB=1024 (one upload)  BENCH_CONCURRENT_MB=256 (each of 4)  DATABASE_URL=... for PostgreSQL
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { caseAddResponse, endpoints } from '@portal/contract';
import { freePort } from '../e2e/helpers/portal-process.ts';
import { fixed, mb, printTable, rssOf, sampleRss } from './lib/measure.ts';
import { benchApi, benchCaseFields, startPortalWithDoctor } from './lib/seed-api.ts';

const singleBytes = Number(process.env.BENCH_UPLOAD_MB ?? 1024) * 1024 * 1024;
const concurrentBytes = Number(process.env.BENCH_CONCURRENT_MB ?? 256) * 1024 * 1024;
const concurrency = 4;

type Body = { length: number; chunks: () => AsyncGenerator<Buffer> };

/** The multipart body: text fields, then one binary STL of about `scanBytes`, generated on the fly. */
function multipartBody(fields: Record<string, string | number>, boundary: string, scanBytes: number): Body {
  const stl = stlBody(scanBytes);
  const head = Buffer.from(
    Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="maxillaryScan"; filename="upper.stl"\r\nContent-Type: model/stl\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* chunks() {
    yield head;
    yield* stl.chunks();
    yield tail;
  }
  return { length: head.length + stl.length + tail.length, chunks };
}

/** A binary STL of about `scanBytes` (header, then 1 MB of random facets again and again). */
function stlBody(scanBytes: number): Body {
  const triangles = Math.floor((scanBytes - 84) / 50);
  const stlHeader = Buffer.alloc(84);
  stlHeader.write('benchmark binary stl', 0, 'latin1');
  stlHeader.writeUInt32LE(triangles, 80);
  const block = randomBytes(50 * 20_000);
  async function* chunks() {
    yield stlHeader;
    let left = triangles * 50;
    while (left > 0) {
      const size = Math.min(left, block.length);
      yield size === block.length ? block : block.subarray(0, size);
      left -= size;
    }
  }
  return { length: 84 + triangles * 50, chunks };
}

/** Sends the body as fast as the receiver takes it; returns seconds and the answer. */
function send(url: string, headers: Record<string, string>, body: Body, method = 'POST') {
  return new Promise<{ seconds: number; status: number; text: string }>((resolve, reject) => {
    const started = process.hrtime.bigint();
    const request = http.request(
      url,
      { method, headers: { ...headers, 'content-length': String(body.length) } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({ seconds: Number(process.hrtime.bigint() - started) / 1e9, status: response.statusCode ?? 0, text }),
        );
      },
    );
    request.on('error', reject);
    void (async () => {
      for await (const chunk of body.chunks()) {
        if (!request.write(chunk)) await new Promise((drain) => request.once('drain', drain));
      }
      request.end();
    })().catch(reject);
  });
}

/**
 * The baselines, in one process of their own: bare Fastify + @fastify/multipart streaming each
 * file part to disk (POST /multipart), and a bare Node HTTP server writing the raw body to
 * disk with SHA-256 on the way (any request to its own port). Files go to `dir`.
 */
async function startBaselines(dir: string) {
  const [fastifyPort, rawPort] = [await freePort(), await freePort()];
  const program = `import Fastify from 'fastify'; import multipart from '@fastify/multipart';
    import { createHash, randomUUID } from 'node:crypto'; import { createWriteStream } from 'node:fs';
    import http from 'node:http'; import path from 'node:path'; import { Transform } from 'node:stream';
    import { pipeline } from 'node:stream/promises';
    const dir = ${JSON.stringify(dir)};
    const app = Fastify({ bodyLimit: 1024 * 1024 });
    await app.register(multipart, { limits: { fieldSize: 1024 * 1024, fields: 200, parts: 300, fileSize: Infinity } });
    app.post('/multipart', async (request) => {
      let files = 0;
      for await (const part of request.parts()) {
        if (part.type !== 'file') continue;
        await pipeline(part.file, createWriteStream(path.join(dir, randomUUID())));
        files++;
      }
      return { files };
    });
    await app.listen({ port: ${fastifyPort}, host: '127.0.0.1' });
    http.createServer(async (request, response) => {
      const hash = createHash('sha256');
      const tap = new Transform({ transform(chunk, _encoding, callback) { hash.update(chunk); callback(null, chunk); } });
      await pipeline(request, tap, createWriteStream(path.join(dir, randomUUID())));
      response.end(JSON.stringify({ sha256: hash.digest('hex') }));
    }).listen(${rawPort}, '127.0.0.1', () => console.log('up'));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', program], {
    cwd: path.resolve(import.meta.dirname, '../apps/server'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  return {
    multipartUrl: `http://127.0.0.1:${fastifyPort}/multipart`,
    rawUrl: `http://127.0.0.1:${rawPort}/`,
    stop: () => child.kill(),
  };
}

const tusHeaders = { 'tus-resumable': '1.0.0' };

/** One tus upload: the creation POST, then the whole file as one PATCH (timed: it includes the finish). */
async function tusUpload(baseUrl: string, token: string, body: Body) {
  const created = await fetch(`${baseUrl}/api/uploads/tus`, {
    method: 'POST',
    headers: {
      ...tusHeaders,
      authorization: `Bearer ${token}`,
      'upload-length': String(body.length),
      'upload-metadata': `filename ${Buffer.from('upper.stl').toString('base64')}`,
    },
  });
  const location = created.headers.get('location');
  if (created.status !== 201 || !location)
    throw new Error(`tus creation refused: ${created.status} ${await created.text()}`);
  const run = await send(
    new URL(location, `${baseUrl}/api/uploads/tus/`).toString(),
    {
      ...tusHeaders,
      authorization: `Bearer ${token}`,
      'content-type': 'application/offset+octet-stream',
      'upload-offset': '0',
    },
    body,
    'PATCH',
  );
  if (run.status !== 204) throw new Error(`tus PATCH refused: ${run.status} ${run.text}`);
  return run;
}

/** `count` uploads at once; aggregate MB/s over the wall time of all of them. */
async function together(count: number, bytes: number, upload: () => Promise<{ status: number; text: string }>) {
  const started = process.hrtime.bigint();
  const runs = await Promise.all(Array.from({ length: count }, upload));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  for (const run of runs) if (run.status >= 300) throw new Error(`upload refused: ${run.status} ${run.text}`);
  return { seconds, mbs: (mb(bytes) * count) / seconds };
}

const percent = (value: number, of: number) => `${fixed((value / of) * 100, 0)}%`;

export async function runUploadBenchmark() {
  const { portal, doctor, stop } = await startPortalWithDoctor('upload');
  const baselineDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-upload-baseline-'));
  const baselines = await startBaselines(baselineDir);
  const clean = async () => {
    await rm(baselineDir, { recursive: true, force: true });
    await mkdir(baselineDir, { recursive: true });
  };
  try {
    const fields = benchCaseFields(doctor.clinicId);
    const boundary = `----bench${randomBytes(8).toString('hex')}`;
    const contentType = { 'content-type': `multipart/form-data; boundary=${boundary}` };
    const caseAdd = (bytes: number) =>
      send(
        `${portal.baseUrl}/api/case/add`,
        { ...contentType, authorization: `Bearer ${doctor.token}` },
        multipartBody(fields, boundary, bytes),
      );
    const rawToDisk = (bytes: number) => send(baselines.rawUrl, {}, stlBody(bytes));
    const multipartToDisk = (bytes: number) =>
      send(baselines.multipartUrl, contentType, multipartBody(fields, boundary, bytes));
    const single = stlBody(singleBytes).length;
    const each = stlBody(concurrentBytes).length;

    // Warm each path once with a small body so start-up costs are not counted.
    await caseAdd(1024 * 1024);
    await tusUpload(portal.baseUrl, doctor.token, stlBody(1024 * 1024));
    await multipartToDisk(1024 * 1024);
    await rawToDisk(1024 * 1024);

    const multipartBaseline = await multipartToDisk(singleBytes);
    await clean();
    const pid = portal.child.pid!;
    const before = rssOf(pid);
    const sampler = sampleRss(pid);
    const portalRun = await caseAdd(singleBytes);
    const peak = sampler.stop();
    if (portalRun.status !== 200) throw new Error(`upload refused: ${portalRun.status} ${portalRun.text}`);
    const { TrackingNo, CaseId } = caseAddResponse.parse(JSON.parse(portalRun.text));
    const [stored] = await benchApi(portal.baseUrl).call(
      endpoints.caseAttachmentList,
      { params: { caseId: CaseId } },
      { token: doctor.token },
    );
    const rawBaseline = await rawToDisk(singleBytes);
    await clean();
    const tusBefore = rssOf(pid);
    const tusSampler = sampleRss(pid);
    const tusRun = await tusUpload(portal.baseUrl, doctor.token, stlBody(singleBytes));
    const tusPeak = tusSampler.stop();

    const multipartTogetherBaseline = await together(concurrency, each, () => multipartToDisk(concurrentBytes));
    await clean();
    const multipartTogether = await together(concurrency, each, () => caseAdd(concurrentBytes));
    const rawTogetherBaseline = await together(concurrency, each, () => rawToDisk(concurrentBytes));
    await clean();
    const tusTogether = await together(concurrency, each, () =>
      tusUpload(portal.baseUrl, doctor.token, stlBody(concurrentBytes)),
    );

    const rate = (run: { seconds: number }, bytes = single) => mb(bytes) / run.seconds;
    const rows = [
      {
        what: `bare Fastify + @fastify/multipart to disk, ${fixed(mb(single), 0)} MB`,
        'MB/s': fixed(rate(multipartBaseline)),
        'of baseline': '',
      },
      {
        what: 'POST /api/case/add (multipart)',
        'MB/s': fixed(rate(portalRun)),
        'of baseline': `${percent(rate(portalRun), rate(multipartBaseline))} (goal >= 90%)`,
      },
      { what: 'bare Node raw body to disk + SHA-256', 'MB/s': fixed(rate(rawBaseline)), 'of baseline': '' },
      {
        what: 'tus PATCH /api/uploads/tus (resumable)',
        'MB/s': fixed(rate(tusRun)),
        'of baseline': `${percent(rate(tusRun), rate(rawBaseline))} (goal >= 80%)`,
      },
      {
        what: `${concurrency} x ${fixed(mb(each), 0)} MB at once: bare multipart to disk`,
        'MB/s': fixed(multipartTogetherBaseline.mbs),
        'of baseline': '',
      },
      {
        what: `${concurrency} x ${fixed(mb(each), 0)} MB at once: POST /api/case/add`,
        'MB/s': fixed(multipartTogether.mbs),
        'of baseline': percent(multipartTogether.mbs, multipartTogetherBaseline.mbs),
      },
      {
        what: `${concurrency} x ${fixed(mb(each), 0)} MB at once: bare raw to disk + SHA-256`,
        'MB/s': fixed(rawTogetherBaseline.mbs),
        'of baseline': '',
      },
      {
        what: `${concurrency} x ${fixed(mb(each), 0)} MB at once: tus PATCH`,
        'MB/s': fixed(tusTogether.mbs),
        'of baseline': percent(tusTogether.mbs, rawTogetherBaseline.mbs),
      },
    ];
    printTable(
      `Uploads (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, local storage), each beside its baseline in this run`,
      rows,
    );
    const growth = mb(peak - before);
    console.log(`  case ${TrackingNo} stored ${fixed(mb(stored?.FileSize ?? 0), 0)} MB`);
    console.log(
      `  portal RSS during the multipart upload: ${fixed(mb(before), 0)} MB before, peak ${fixed(mb(peak), 0)} MB, growth ${fixed(growth)} MB (goal < 64 MB); during the tus upload: growth ${fixed(mb(tusPeak - tusBefore))} MB`,
    );
    return {
      multipart: rate(portalRun) / rate(multipartBaseline),
      tus: rate(tusRun) / rate(rawBaseline),
      rssGrowthMb: growth,
    };
  } finally {
    baselines.stop();
    await rm(baselineDir, { recursive: true, force: true });
    await stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runUploadBenchmark();
}
