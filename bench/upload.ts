/**
 * Upload benchmark, on loopback, each path beside a baseline doing the same work in the same run:
 * - multipart: one case with a large binary STL through POST /api/case/add, beside bare
 *   Fastify + @fastify/multipart streaming the same file to disk. Goals (issue 11): at least
 *   90% of it, portal RSS growth under 64 MB.
 * - resumable: the same STL as one tus PATCH at /api/uploads/tus, beside a bare Node server
 *   writing the same raw bytes to disk with SHA-256. Goal: at least 80% of it.
 * - 4 concurrent uploads through each path, aggregate MB/s, beside the same baselines 4 at a time.
 * Each figure is the median of BENCH_UPLOAD_ROUNDS rounds (3), a path and its baselines taken in
 * turn; beside MB/s, the CPU time its server spent per GB, which a busy machine disturbs less.
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
import { cpuSecondsOf, fixed, mb, median, printTable, rssOf, sampleRss } from './lib/measure.ts';
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
 * file part to disk (POST /multipart; POST /multipart-sha256 hashes it on the way, as the
 * portal must), and a bare Node HTTP server writing the raw body to disk with SHA-256 on the
 * way (any request to its own port). Files go to `dir`.
 */
async function startBaselines(dir: string) {
  const [fastifyPort, rawPort] = [await freePort(), await freePort()];
  const program = `import Fastify from 'fastify'; import multipart from '@fastify/multipart';
    import { createHash, randomUUID } from 'node:crypto'; import { createWriteStream } from 'node:fs';
    import http from 'node:http'; import path from 'node:path'; import { Transform } from 'node:stream';
    import { pipeline } from 'node:stream/promises';
    const dir = ${JSON.stringify(dir)};
    const hashing = (hash) => new Transform({ transform(chunk, _encoding, callback) { hash.update(chunk); callback(null, chunk); } });
    const app = Fastify({ bodyLimit: 1024 * 1024 });
    await app.register(multipart, { limits: { fieldSize: 1024 * 1024, fields: 200, parts: 300, fileSize: Infinity } });
    const multipartRoute = (withHash) => async (request) => {
      const files = [];
      for await (const part of request.parts()) {
        if (part.type !== 'file') continue;
        const hash = createHash('sha256');
        const stages = withHash ? [part.file, hashing(hash)] : [part.file];
        await pipeline(...stages, createWriteStream(path.join(dir, randomUUID())));
        files.push(withHash ? hash.digest('hex') : part.filename);
      }
      return { files };
    };
    app.post('/multipart', multipartRoute(false));
    app.post('/multipart-sha256', multipartRoute(true));
    await app.listen({ port: ${fastifyPort}, host: '127.0.0.1' });
    http.createServer(async (request, response) => {
      const hash = createHash('sha256');
      await pipeline(request, hashing(hash), createWriteStream(path.join(dir, randomUUID())));
      response.end(JSON.stringify({ sha256: hash.digest('hex') }));
    }).listen(${rawPort}, '127.0.0.1', () => console.log('up'));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', program], {
    cwd: path.resolve(import.meta.dirname, '../apps/server'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  return {
    pid: child.pid!,
    multipartUrl: `http://127.0.0.1:${fastifyPort}/multipart`,
    multipartSha256Url: `http://127.0.0.1:${fastifyPort}/multipart-sha256`,
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

/** `count` uploads at once; seconds over the wall time of all of them. */
async function together(count: number, upload: () => Promise<{ status: number; text: string }>) {
  const started = process.hrtime.bigint();
  const runs = await Promise.all(Array.from({ length: count }, upload));
  for (const run of runs) if (run.status >= 300) throw new Error(`upload refused: ${run.status} ${run.text}`);
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

const percent = (value: number, of: number) => `${fixed((value / of) * 100, 0)}%`;

/** How one upload path did over the rounds: median MB/s, median CPU seconds per GB of its server, largest RSS growth. */
interface Measured {
  mbs: number;
  cpuPerGb: number;
  rssGrowth: number;
}

interface Contender {
  pid: number;
  upload: () => Promise<{ seconds: number }>;
}

/**
 * Runs each of `contenders` (an upload path or its baseline: the upload, and the pid of the
 * process that serves it) `rounds` times, in turn and in an order that changes every round,
 * removing every stored file after each run: on a busy machine no contender always goes first
 * or always meets the disk still writing back the one before.
 */
async function inTurn<const Contenders extends readonly Contender[]>(
  rounds: number,
  bytes: number,
  contenders: Contenders,
  clean: () => Promise<void>,
): Promise<{ [Index in keyof Contenders]: Measured }> {
  const runs = contenders.map(() => [] as Measured[]);
  for (let round = 0; round < rounds; round++) {
    const order = contenders.map((_, index) => index);
    if (round % 2 === 1) order.reverse();
    for (const index of order) {
      const { pid, upload } = contenders[index]!;
      const [rssBefore, cpuBefore] = [rssOf(pid), cpuSecondsOf(pid)];
      const sampler = sampleRss(pid);
      const { seconds } = await upload();
      const peak = sampler.stop();
      runs[index]!.push({
        mbs: mb(bytes) / seconds,
        cpuPerGb: (cpuSecondsOf(pid) - cpuBefore) / (bytes / 1024 ** 3),
        rssGrowth: peak - rssBefore,
      });
      await clean();
    }
  }
  return runs.map((list) => ({
    mbs: median(list.map((run) => run.mbs)),
    cpuPerGb: median(list.map((run) => run.cpuPerGb)),
    rssGrowth: Math.max(...list.map((run) => run.rssGrowth)),
  })) as { [Index in keyof Contenders]: Measured };
}

export async function runUploadBenchmark() {
  const rounds = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 3);
  const { portal, doctor, dataDir, stop } = await startPortalWithDoctor('upload');
  const portalPid = portal.child.pid!;
  const portalFiles = path.join(dataDir, 'files');
  const baselineDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-upload-baseline-'));
  const baselines = await startBaselines(baselineDir);
  // Both sides' stored bytes go after each run (the portal's straight from its storage folder).
  const clean = async () => {
    for (const folder of [baselineDir, path.join(portalFiles, 'cases'), path.join(portalFiles, 'uploads')]) {
      await rm(folder, { recursive: true, force: true });
      await mkdir(folder, { recursive: true });
    }
  };
  try {
    const fields = benchCaseFields(doctor.clinicId);
    const boundary = `----bench${randomBytes(8).toString('hex')}`;
    const contentType = { 'content-type': `multipart/form-data; boundary=${boundary}` };
    const caseAdd = async (bytes: number) => {
      const run = await send(
        `${portal.baseUrl}/api/case/add`,
        { ...contentType, authorization: `Bearer ${doctor.token}` },
        multipartBody(fields, boundary, bytes),
      );
      if (run.status !== 200) throw new Error(`upload refused: ${run.status} ${run.text}`);
      return run;
    };
    const tus = (bytes: number) => tusUpload(portal.baseUrl, doctor.token, stlBody(bytes));
    const rawToDisk = (bytes: number) => send(baselines.rawUrl, {}, stlBody(bytes));
    const multipartToDisk = (bytes: number, url = baselines.multipartUrl) =>
      send(url, contentType, multipartBody(fields, boundary, bytes));
    const single = stlBody(singleBytes).length;
    const each = stlBody(concurrentBytes).length;

    // Warm each path once with a small body so start-up costs are not counted; the portal's
    // answer is checked once: the case holds the whole file.
    const { CaseId } = caseAddResponse.parse(JSON.parse((await caseAdd(1024 * 1024)).text));
    const [stored] = await benchApi(portal.baseUrl).call(
      endpoints.caseAttachmentList,
      { params: { caseId: CaseId } },
      { token: doctor.token },
    );
    if (stored?.FileSize !== stlBody(1024 * 1024).length) throw new Error('the case does not hold the whole scan');
    await tus(1024 * 1024);
    await multipartToDisk(1024 * 1024);
    await multipartToDisk(1024 * 1024, baselines.multipartSha256Url);
    await rawToDisk(1024 * 1024);
    await clean();

    const [multipartBaseline, multipartSha256Baseline, multipartPortal] = await inTurn(
      rounds,
      single,
      [
        { pid: baselines.pid, upload: () => multipartToDisk(singleBytes) },
        { pid: baselines.pid, upload: () => multipartToDisk(singleBytes, baselines.multipartSha256Url) },
        { pid: portalPid, upload: () => caseAdd(singleBytes) },
      ],
      clean,
    );
    const [rawBaseline, tusPortal] = await inTurn(
      rounds,
      single,
      [
        { pid: baselines.pid, upload: () => rawToDisk(singleBytes) },
        { pid: portalPid, upload: () => tus(singleBytes) },
      ],
      clean,
    );
    const all = concurrency * each;
    const [multipartTogetherBaseline, multipartTogether] = await inTurn(
      rounds,
      all,
      [
        { pid: baselines.pid, upload: () => together(concurrency, () => multipartToDisk(concurrentBytes)) },
        { pid: portalPid, upload: () => together(concurrency, () => caseAdd(concurrentBytes)) },
      ],
      clean,
    );
    const [rawTogetherBaseline, tusTogether] = await inTurn(
      rounds,
      all,
      [
        { pid: baselines.pid, upload: () => together(concurrency, () => rawToDisk(concurrentBytes)) },
        { pid: portalPid, upload: () => together(concurrency, () => tus(concurrentBytes)) },
      ],
      clean,
    );

    const line = (what: string, run: Measured, of = '') => ({
      what,
      'MB/s': fixed(run.mbs),
      'of baseline': of,
      'server CPU s/GB': fixed(run.cpuPerGb, 2),
    });
    const rows = [
      line(`bare Fastify + @fastify/multipart to disk, ${fixed(mb(single), 0)} MB`, multipartBaseline),
      line('  the same + SHA-256 (the work the portal must do)', multipartSha256Baseline),
      line(
        'POST /api/case/add (multipart)',
        multipartPortal,
        `${percent(multipartPortal.mbs, multipartBaseline.mbs)} (goal >= 90%); ${percent(multipartPortal.mbs, multipartSha256Baseline.mbs)} of the one with SHA-256`,
      ),
      line('bare Node raw body to disk + SHA-256', rawBaseline),
      line(
        'tus PATCH /api/uploads/tus (resumable)',
        tusPortal,
        `${percent(tusPortal.mbs, rawBaseline.mbs)} (goal >= 80%)`,
      ),
      line(`${concurrency} x ${fixed(mb(each), 0)} MB at once: bare multipart to disk`, multipartTogetherBaseline),
      line(
        `${concurrency} x ${fixed(mb(each), 0)} MB at once: POST /api/case/add`,
        multipartTogether,
        percent(multipartTogether.mbs, multipartTogetherBaseline.mbs),
      ),
      line(`${concurrency} x ${fixed(mb(each), 0)} MB at once: bare raw to disk + SHA-256`, rawTogetherBaseline),
      line(
        `${concurrency} x ${fixed(mb(each), 0)} MB at once: tus PATCH`,
        tusTogether,
        percent(tusTogether.mbs, rawTogetherBaseline.mbs),
      ),
    ];
    printTable(
      `Uploads (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, local storage), each beside its baseline in this run, median of ${rounds} rounds taken in turn`,
      rows,
    );
    console.log(
      `  RSS growth during one ${fixed(mb(single), 0)} MB upload (largest of the rounds): portal multipart ${fixed(mb(multipartPortal.rssGrowth))} MB (goal < 64 MB), bare multipart ${fixed(mb(multipartBaseline.rssGrowth))} MB; portal tus ${fixed(mb(tusPortal.rssGrowth))} MB, bare raw ${fixed(mb(rawBaseline.rssGrowth))} MB (these two in the same processes, after their multipart uploads: RSS a process has reached it keeps)`,
    );
    return {
      multipart: multipartPortal.mbs / multipartBaseline.mbs,
      tus: tusPortal.mbs / rawBaseline.mbs,
      rssGrowthMb: mb(multipartPortal.rssGrowth),
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
