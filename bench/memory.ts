/**
 * Memory benchmark: the idle portal's resident memory, started as `npm start` starts it, a
 * few seconds after it answers /api/ready: restarted on its own data (the goal's figure), and
 * its first start on a fresh database, which migrated and seeded. Beside it, in the same run: a
 * bare Node process, and on PGlite a bare Node process that opens PGlite on the same data
 * folder (started after the portal stops: PGlite belongs to one process).
 * Goal (issue 11): at most 150 MB on PostgreSQL.   DATABASE_URL=... to run on PostgreSQL
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startCommand, startPortal } from '../e2e/helpers/portal-process.ts';
import { fixed, mb, printTable, rssOf } from './lib/measure.ts';

const settleMs = Number(process.env.BENCH_IDLE_SETTLE_MS ?? 5000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A Node process running `program` (an ES module, in apps/server for its packages) until killed. */
async function bareProcess(program: string, flags: string[] = []) {
  const child = spawn(process.execPath, [...flags, '--input-type=module', '-e', program], {
    cwd: path.resolve(import.meta.dirname, '../apps/server'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  await sleep(settleMs);
  const rss = rssOf(child.pid!);
  child.kill();
  return rss;
}

export async function runMemoryBenchmark() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-memory-'));
  const name = `portal_bench_memory_${process.pid}`;
  const admin = process.env.DATABASE_URL ? new pg.Client({ connectionString: process.env.DATABASE_URL }) : undefined;
  let databaseUrl = '';
  if (admin) {
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
  try {
    // The first start migrates and seeds (countries and cities); the second is the one measured,
    // as a server restarted on its own data runs.
    const env = { DATA_DIR: dataDir, DATABASE_URL: databaseUrl, ADMIN_PASSWORD: 'bench-admin-pass' };
    const first = await startPortal(env, { quiet: true });
    await sleep(settleMs);
    const firstStartRss = rssOf(first.child.pid!);
    await first.stop();
    const portal = await startPortal(env, { quiet: true });
    await sleep(settleMs);
    const portalRss = rssOf(portal.child.pid!);
    await portal.stop();

    const portalFlags = startCommand.nodeFlags;
    const bareNode = await bareProcess(`console.log('up'); setInterval(() => {}, 1000);`, portalFlags);
    const rows = [
      { what: 'bare Node process (same V8 flags)', 'RSS MB': fixed(mb(bareNode), 0) },
      { what: 'portal, idle', 'RSS MB': fixed(mb(portalRss), 0) },
      { what: 'portal, idle after its first start (it migrated and seeded)', 'RSS MB': fixed(mb(firstStartRss), 0) },
    ];
    if (!databaseUrl) {
      const program = `import { PGlite } from '@electric-sql/pglite';
        import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
        const client = await PGlite.create({ dataDir: ${JSON.stringify(path.join(dataDir, 'pglite'))}, extensions: { pg_trgm } });
        await client.query('select count(*) from cities');
        console.log('up'); setInterval(() => {}, 1000);`;
      rows.splice(1, 0, {
        what: 'bare Node opening PGlite on the same data',
        'RSS MB': fixed(mb(await bareProcess(program, portalFlags)), 0),
      });
    }
    printTable(`Memory: idle RSS, ${settleMs / 1000} s after ready (${databaseUrl ? 'PostgreSQL' : 'PGlite'})`, rows);
    if (databaseUrl) console.log(`  goal on PostgreSQL: at most 150 MB (${mb(portalRss) <= 150 ? 'met' : 'not met'})`);
    return { portalRssMb: mb(portalRss) };
  } finally {
    if (admin) {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runMemoryBenchmark();
}
