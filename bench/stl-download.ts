/**
 * STL downloads compressed on the wire (docs/decisions/speed.md § On the wire): a generated scan
 * (447k triangles, the size of a real arch; apps/server/test/helpers/dental-meshes.ts) sent
 * through the streaming compressors the download route could use, in 64 KiB chunks as storage
 * reads them, each the fastest of three runs. For each: the bytes on the wire, the wall and CPU
 * time (zlib runs on libuv's threadpool), the longest the event loop was held meanwhile (beside
 * the same while idle), the memory one download's compressor holds (RSS of a fresh process
 * running 40 at once, divided by 40) and the download's time on two links beside the STL sent
 * as it is (the compressor streams, so a download takes the longer of compressing and sending).
 *   BENCH_SCAN_TRIANGLES=447000
 */
import { execFileSync } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { constants, createBrotliCompress, createGzip, type BrotliCompress, type Gzip } from 'node:zlib';
import { scanStl } from '../apps/server/test/helpers/dental-meshes.ts';
import { fixed, mb, printTable } from './lib/measure.ts';

const scanTriangles = Number(process.env.BENCH_SCAN_TRIANGLES ?? 447_000);
const chunkBytes = 64 * 1024;
/** A clinic's ordinary office line and a fast one, in megabits per second. */
const links = [20, 100];

interface Measured {
  bytes: number;
  wallMs: number;
  cpuMs: number;
  loopMaxMs: number;
}

const chunksOf = (data: Uint8Array) =>
  Readable.from(
    (function* () {
      for (let offset = 0; offset < data.byteLength; offset += chunkBytes)
        yield Buffer.from(data.buffer, data.byteOffset + offset, Math.min(chunkBytes, data.byteLength - offset));
    })(),
  );

async function compressOnce(data: Uint8Array, compressor: () => Gzip | BrotliCompress): Promise<Measured> {
  let bytes = 0;
  const counter = new Writable({
    write(chunk: Buffer, _encoding, done) {
      bytes += chunk.byteLength;
      done();
    },
  });
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const cpu = process.cpuUsage();
  const start = performance.now();
  await pipeline(chunksOf(data), compressor(), counter);
  const wallMs = performance.now() - start;
  const { user, system } = process.cpuUsage(cpu);
  loop.disable();
  return { bytes, wallMs, cpuMs: (user + system) / 1000, loopMaxMs: loop.max / 1e6 };
}

async function fastestOf3(data: Uint8Array, compressor: () => Gzip | BrotliCompress): Promise<Measured> {
  const runs: Measured[] = [];
  for (let run = 0; run < 3; run++) runs.push(await compressOnce(data, compressor));
  return runs.reduce((best, next) => (next.wallMs < best.wallMs ? next : best));
}

/** Seconds to send `bytes` over a link of `mbit` megabits per second. */
const sendSeconds = (bytes: number, mbit: number) => (bytes * 8) / (mbit * 1e6);

const brotli = (lgwin?: number) => () =>
  createBrotliCompress({
    params: { [constants.BROTLI_PARAM_QUALITY]: 4, ...(lgwin && { [constants.BROTLI_PARAM_LGWIN]: lgwin }) },
  });
const encodings: { what: string; compressor: () => Gzip | BrotliCompress }[] = [
  { what: 'gzip level 1', compressor: () => createGzip({ level: 1 }) },
  { what: 'gzip level 5 (chosen)', compressor: () => createGzip({ level: 5 }) },
  { what: 'gzip level 9', compressor: () => createGzip({ level: 9 }) },
  { what: 'brotli quality 4, 4 MiB window (its default)', compressor: brotli() },
  { what: 'brotli quality 4, 256 KiB window (chosen)', compressor: brotli(18) },
];

/**
 * MiB of RSS one compressor holds: 40 at once in this (fresh) process, each fed 4 MiB of the
 * scan (a brotli window's worth), their output dropped and collected before RSS is read.
 */
async function memoryPerCompressor(stl: Uint8Array, compressor: () => Gzip | BrotliCompress): Promise<number> {
  const streams = Array.from({ length: 40 }, () => compressor().on('data', () => {}));
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  for (let offset = 0; offset < 4 * 1024 * 1024; offset += chunkBytes) {
    const chunk = Buffer.from(stl.buffer, stl.byteOffset + offset, chunkBytes);
    await Promise.all(streams.map((stream) => new Promise((resolve) => stream.write(chunk, resolve))));
  }
  globalThis.gc?.();
  const perStream = mb(process.memoryUsage().rss - before) / streams.length;
  for (const stream of streams) stream.destroy();
  return perStream;
}

/** The longest the event loop waited while idle for `ms`: what the machine's own load adds. */
async function idleLoopMaxMs(ms: number): Promise<number> {
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  await sleep(ms);
  loop.disable();
  return loop.max / 1e6;
}

export async function runStlDownloadBenchmark() {
  const stl = scanStl(scanTriangles);
  const rows: Record<string, string | number>[] = [
    {
      what: 'none (the STL as stored)',
      MB: fixed(mb(stl.byteLength), 2),
      'STL / sent': '1.00',
      'wall ms': '-',
      'CPU ms': '-',
      'MB/s': '-',
      'event loop held, max ms': `${fixed(await idleLoopMaxMs(1000), 1)} (idle 1 s)`,
      'MiB per download': '-',
      ...Object.fromEntries(
        links.map((mbit) => [`at ${mbit} Mbit/s`, `${fixed(sendSeconds(stl.byteLength, mbit))} s`]),
      ),
    },
  ];
  const measured: Record<string, Measured> = {};
  for (const [index, { what, compressor }] of encodings.entries()) {
    const m = await fastestOf3(stl, compressor);
    const memory = execFileSync(process.execPath, [...process.execArgv, '--expose-gc', import.meta.filename], {
      env: { ...process.env, BENCH_MEMORY_OF: String(index) },
      encoding: 'utf8',
    });
    measured[what] = m;
    rows.push({
      what,
      MB: fixed(mb(m.bytes), 2),
      'STL / sent': fixed(stl.byteLength / m.bytes, 2),
      'wall ms': fixed(m.wallMs, 0),
      'CPU ms': fixed(m.cpuMs, 0),
      'MB/s': fixed(mb(stl.byteLength) / (m.wallMs / 1000), 0),
      'event loop held, max ms': fixed(m.loopMaxMs, 1),
      'MiB per download': fixed(Number(memory), 1),
      ...Object.fromEntries(
        links.map((mbit) => [`at ${mbit} Mbit/s`, `${fixed(Math.max(m.wallMs / 1000, sendSeconds(m.bytes, mbit)))} s`]),
      ),
    });
  }
  printTable(
    `STL download on the wire: a ${scanTriangles.toLocaleString('en')}-triangle scan, streamed in 64 KiB chunks, fastest of 3`,
    rows,
  );
  return measured;
}

if (process.env.BENCH_MEMORY_OF) {
  const { compressor } = encodings[Number(process.env.BENCH_MEMORY_OF)]!;
  console.log(await memoryPerCompressor(scanStl(scanTriangles), compressor));
} else if (import.meta.url === `file://${process.argv[1]}`) {
  await runStlDownloadBenchmark();
}
