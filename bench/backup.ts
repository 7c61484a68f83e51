/**
 * Backup benchmark: BENCH_CASES cases (10,000) seeded as bench/lists.ts seeds them, and one
 * BENCH_FILE_KB (20 KB) file per case in DATA_DIR/files; `npm run backup` and `npm run restore`
 * (plain and encrypted) timed with their archive's size, beside a baseline in the same run: what
 * an operator who knows the internals would do with the portal stopped (PGlite: tar of
 * DATA_DIR; PostgreSQL: `pg_dump -Fc` and tar of the files, `pg_restore` and untar).
 *   BENCH_CASES=10000 BENCH_FILE_KB=20   DATABASE_URL=... to run on PostgreSQL
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { backupCliFile as cli, buildBackupCli } from '../apps/server/build.ts';
import { prepareDatabase } from '../apps/server/src/db/prepare.ts';
import { fixed, printTable } from './lib/measure.ts';

process.env.BENCH_CASES ??= '10000';
const { admin, freshDatabase, quietLog, seed } = await import('./lists.ts');
const caseCount = Number(process.env.BENCH_CASES);
const fileBytes = Number(process.env.BENCH_FILE_KB ?? 20) * 1000;
const run = promisify(execFile);
const backupKey = randomBytes(32).toString('base64');

/** Wall time of `work` in seconds. */
async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

const megabytes = async (file: string) => fixed((await stat(file)).size / 1e6);

async function runBackupBenchmark() {
  await buildBackupCli();
  const work = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-backup-'));
  const dataDir = path.join(work, 'data');
  await mkdir(dataDir);
  const database = await freshDatabase(dataDir);
  const connection = await database.connect();
  await prepareDatabase(connection, quietLog, { admin });
  await seed(connection);
  await connection.close();
  for (let index = 0; index < caseCount; index++) {
    const folder = path.join(dataDir, 'files', 'cases', String(Math.floor(index / 1000)));
    if (index % 1000 === 0) await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, `${index}.stl`), randomBytes(fileBytes));
  }
  const env = { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, ...database.env, JWT_SECRET: 'b'.repeat(40) };
  const portalCli = (args: string[], extra: Record<string, string> = {}) =>
    run(process.execPath, [cli, ...args], { env: { ...env, ...extra } });
  const url = database.env.DATABASE_URL;
  /** Empties the target: the data folder's database and files, and the PostgreSQL database. */
  const wipe = async () => {
    await rm(path.join(dataDir, 'pglite'), { recursive: true, force: true });
    await rm(path.join(dataDir, 'files'), { recursive: true, force: true });
    if (!url) return;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('drop schema if exists drizzle cascade; drop schema public cascade; create schema public');
    await client.end();
  };

  const plain = path.join(work, 'plain.tar');
  const encrypted = path.join(work, 'encrypted.tar');
  const baselineTar = path.join(work, 'baseline.tar');
  const baselineDump = path.join(work, 'baseline.dump');
  const rows: Record<string, string | number>[] = [];
  const baselineBackup = await timed(async () => {
    if (url) await run('pg_dump', ['--format=custom', `--file=${baselineDump}`, `--dbname=${url}`]);
    await run('tar', ['-cf', baselineTar, '-C', dataDir, ...(url ? ['files'] : ['pglite', 'files'])]);
  });
  const baselineBytes = (await stat(baselineTar)).size + (url ? (await stat(baselineDump)).size : 0);
  rows.push({
    what: `baseline backup (${url ? 'pg_dump -Fc + tar of files' : 'tar of DATA_DIR'})`,
    seconds: fixed(baselineBackup),
    MB: fixed(baselineBytes / 1e6),
  });
  rows.push({
    what: 'npm run backup',
    seconds: fixed(await timed(() => portalCli(['backup', plain]))),
    MB: await megabytes(plain),
  });
  rows.push({
    what: 'npm run backup, BACKUP_KEY',
    seconds: fixed(await timed(() => portalCli(['backup', encrypted], { BACKUP_KEY: backupKey }))),
    MB: await megabytes(encrypted),
  });
  await wipe();
  const baselineRestore = await timed(async () => {
    if (url) await run('pg_restore', ['--no-owner', `--dbname=${url}`, baselineDump]);
    await run('tar', ['-xf', baselineTar, '-C', dataDir]);
  });
  rows.push({
    what: `baseline restore (${url ? 'pg_restore + untar' : 'untar'})`,
    seconds: fixed(baselineRestore),
    MB: '',
  });
  await wipe();
  rows.push({ what: 'npm run restore', seconds: fixed(await timed(() => portalCli(['restore', plain]))), MB: '' });
  await wipe();
  rows.push({
    what: 'npm run restore, BACKUP_KEY',
    seconds: fixed(await timed(() => portalCli(['restore', encrypted], { BACKUP_KEY: backupKey }))),
    MB: '',
  });
  printTable(
    `Backup and restore, ${caseCount} cases with a ${fileBytes / 1000} KB file each (${url ? 'PostgreSQL' : 'PGlite'})`,
    rows,
  );
  await database.drop();
  await rm(work, { recursive: true, force: true });
}

await runBackupBenchmark();
