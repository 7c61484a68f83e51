/**
 * What metrics add to one request, in this process's CPU time: the same app built with metrics off and on
 * (METRICS_TOKEN), `GET /api/health` answered through app.inject in alternating rounds, and the difference
 * per request. Other load on the machine slows both alike; the list benchmark (bench/lists.ts) compares the
 * real lists over HTTP.  node --import tsx bench/metrics-overhead.ts   BENCH_REQUESTS=10000 per round
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { connectDatabase } from '../apps/server/src/db/client.ts';
import { fixed, printTable } from './lib/measure.ts';

const requestsPerRound = Number(process.env.BENCH_REQUESTS ?? 10_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 10);

export async function runMetricsOverheadBenchmark() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-metrics-'));
  const database = await connectDatabase({});
  const token = randomBytes(24).toString('base64url');
  const base = { JWT_SECRET: 'x'.repeat(40), DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEB_DIST: dataDir };
  const apps = {
    off: await buildApp({ config: loadConfig(base), database, logger: false }),
    on: await buildApp({ config: loadConfig({ ...base, METRICS_TOKEN: token }), database, logger: false }),
  };
  const cpuMicros = { off: [] as number[], on: [] as number[] };
  try {
    for (const app of Object.values(apps)) {
      await app.ready();
      for (let i = 0; i < 2000; i++) await app.inject({ method: 'GET', url: '/api/health' });
    }
    for (let round = 0; round < rounds; round++) {
      for (const side of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        const before = process.cpuUsage();
        for (let i = 0; i < requestsPerRound; i++) await apps[side].inject({ method: 'GET', url: '/api/health' });
        const used = process.cpuUsage(before);
        cpuMicros[side].push((used.user + used.system) / requestsPerRound);
      }
    }
    // The least disturbed round of each: other load on the machine only ever adds time.
    const [off, on] = [Math.min(...cpuMicros.off), Math.min(...cpuMicros.on)];
    printTable(
      `Metrics' cost per request: GET /api/health through app.inject, ${rounds} alternating rounds x ${requestsPerRound}`,
      [
        {
          'off µs CPU/req, best round': fixed(off, 1),
          'on µs CPU/req, best round': fixed(on, 1),
          'added µs': fixed(on - off, 1),
          'off rounds': cpuMicros.off.map((value) => fixed(value, 0)).join(' '),
          'on rounds': cpuMicros.on.map((value) => fixed(value, 0)).join(' '),
        },
      ],
    );
    return { off, on };
  } finally {
    await Promise.all(Object.values(apps).map((app) => app.close()));
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runMetricsOverheadBenchmark();
