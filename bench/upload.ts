/**
 * Upload benchmark: one case with a large binary STL through POST /api/case/add on
 * loopback, against the same bytes sent to a bare Node HTTP server that discards them
 * (this machine's ceiling). Prints MB/s and the portal's peak RSS growth.
 * Goals (issue 3): RSS growth under 64 MB, at least 70% of the ceiling.
 *   BENCH_UPLOAD_MB=1024 (default)   DATABASE_URL=... to run on PostgreSQL
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { caseAddResponse, endpoints } from '@portal/contract';
import { freePort } from '../e2e/helpers/portal-process.ts';
import { fixed, mb, printTable, rssOf, sampleRss } from './lib/measure.ts';
import { benchApi, benchCaseFields, startPortalWithDoctor } from './lib/seed-api.ts';

const scanBytes = Number(process.env.BENCH_UPLOAD_MB ?? 1024) * 1024 * 1024;

/** The multipart body: text fields, then one binary STL of `scanBytes`, generated on the fly. */
function multipartBody(fields: Record<string, string | number>, boundary: string) {
  const triangles = Math.floor((scanBytes - 84) / 50);
  const stlSize = 84 + triangles * 50;
  const head = Buffer.from(
    Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="maxillaryScan"; filename="upper.stl"\r\nContent-Type: model/stl\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const stlHeader = Buffer.alloc(84);
  stlHeader.write('benchmark binary stl', 0, 'latin1');
  stlHeader.writeUInt32LE(triangles, 80);
  const block = randomBytes(50 * 20_000); // 1 MB of facets, sent again and again
  async function* chunks() {
    yield head;
    yield stlHeader;
    let left = triangles * 50;
    while (left > 0) {
      const size = Math.min(left, block.length);
      yield size === block.length ? block : block.subarray(0, size);
      left -= size;
    }
    yield tail;
  }
  return { length: head.length + stlSize + tail.length, chunks };
}

/** POSTs the body as fast as the receiver takes it; returns seconds and the answer. */
function send(url: string, headers: Record<string, string>, body: ReturnType<typeof multipartBody>) {
  return new Promise<{ seconds: number; status: number; text: string }>((resolve, reject) => {
    const started = process.hrtime.bigint();
    const request = http.request(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': String(body.length) } },
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

/** A bare Node HTTP server in its own process that reads and discards the body. */
async function startCeilingServer() {
  const port = await freePort();
  const child = spawn(process.execPath, [
    '-e',
    `require('node:http').createServer((q, s) => { q.resume(); q.on('end', () => s.end('{}')); }).listen(${port}, '127.0.0.1', () => console.log('up'))`,
  ]);
  await new Promise((resolve) => child.stdout.once('data', resolve));
  return { url: `http://127.0.0.1:${port}/`, pid: child.pid!, stop: () => child.kill() };
}

export async function runUploadBenchmark() {
  const { portal, doctor, stop } = await startPortalWithDoctor('upload');
  try {
    const fields = benchCaseFields(doctor.clinicId);
    const boundary = `----bench${randomBytes(8).toString('hex')}`;
    const contentType = { 'content-type': `multipart/form-data; boundary=${boundary}` };

    const ceiling = await startCeilingServer();
    const ceilingRun = await send(ceiling.url, contentType, multipartBody(fields, boundary));
    ceiling.stop();

    // Warm the route once with a small body so start-up costs are not counted.
    const pid = portal.child.pid!;
    const before = rssOf(pid);
    const sampler = sampleRss(pid);
    const portalRun = await send(
      `${portal.baseUrl}/api/case/add`,
      { ...contentType, authorization: `Bearer ${doctor.token}` },
      multipartBody(fields, boundary),
    );
    const peak = sampler.stop();
    if (portalRun.status !== 200) throw new Error(`upload refused: ${portalRun.status} ${portalRun.text}`);
    const { TrackingNo, CaseId } = caseAddResponse.parse(JSON.parse(portalRun.text));
    const [stored] = await benchApi(portal.baseUrl).call(
      endpoints.caseAttachmentList,
      { params: { caseId: CaseId } },
      { token: doctor.token },
    );

    const ceilingMbs = mb(scanBytes) / ceilingRun.seconds;
    const portalMbs = mb(scanBytes) / portalRun.seconds;
    const growth = mb(peak - before);
    printTable(
      `Upload: one case with a ${fixed(mb(scanBytes), 0)} MB scan (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, local storage)`,
      [
        { what: 'bare Node HTTP server (ceiling)', 'MB/s': fixed(ceilingMbs), seconds: fixed(ceilingRun.seconds, 2) },
        { what: 'POST /api/case/add', 'MB/s': fixed(portalMbs), seconds: fixed(portalRun.seconds, 2) },
      ],
    );
    console.log(`  case ${TrackingNo} stored ${fixed(mb(stored?.FileSize ?? 0), 0)} MB`);
    console.log(`  throughput: ${fixed((portalMbs / ceilingMbs) * 100, 0)}% of the ceiling (goal >= 70%)`);
    console.log(
      `  portal RSS: ${fixed(mb(before), 0)} MB before, peak ${fixed(mb(peak), 0)} MB, growth ${fixed(growth)} MB (goal < 64 MB)`,
    );
    return { ceilingMbs, portalMbs, ratio: portalMbs / ceilingMbs, rssGrowthMb: growth };
  } finally {
    await stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runUploadBenchmark();
}
