/**
 * List benchmark: 100,000 cases over 1,000 doctors; autocannon on the paged case list and on
 * the stats, as a doctor and as staff, beside a bare Fastify route served the same way.
 * Goal (issue 3): at least 50% of the bare route's requests/s.
 *   BENCH_CASES=100000 BENCH_SECONDS=10   DATABASE_URL=... to run on PostgreSQL
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { hashPassword } from '../apps/server/src/auth/passwords.ts';
import { connectDatabase, type DatabaseConnection } from '../apps/server/src/db/client.ts';
import { prepareDatabase } from '../apps/server/src/db/prepare.ts';
import { freePort, startPortal } from '../e2e/helpers/portal-process.ts';
import { fixed, printTable } from './lib/measure.ts';
import { login } from './lib/seed-api.ts';

const caseCount = Number(process.env.BENCH_CASES ?? 100_000);
const doctorCount = 1000;
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const admin = { username: 'admin', password: 'bench-admin-pass' };
const quietLog = {
  info() {},
  warn() {},
  error() {},
  debug() {},
  fatal() {},
  trace() {},
  child: () => quietLog,
  level: 'silent',
  silent() {},
};

/** Doctors, clinics and cases in three set-based inserts. */
async function seed(connection: DatabaseConnection) {
  const passwordHash = await hashPassword('bench-pass');
  const { db } = connection;
  await db.execute(sql`
    insert into users (user_name, first_name, last_name, email, role_id, user_type, password_hash, is_active)
    select 'benchdr' || g, 'Doctor' || g, 'Surname' || g, 'dr' || g || '@bench.test', 19, 'Doctor', ${passwordHash}, true
    from generate_series(1, ${doctorCount}) g`);
  await db.execute(
    sql`insert into doctors (user_id, gender) select user_id, 'Other' from users where user_name like 'benchdr%'`,
  );
  await db.execute(sql`
    insert into clinics (doctor_id, clinic_name, country_id, city_id)
    select doctor_id, 'Clinic ' || doctor_id, 1, (select min(city_id) from cities where country_id = 1) from doctors`);
  await db.execute(sql`
    create temporary table bench_doctors as
    select row_number() over (order by u.user_id) - 1 as slot, u.user_id, c.clinic_id
    from users u join doctors d on d.user_id = u.user_id join clinics c on c.doctor_id = d.doctor_id
    where u.user_name like 'benchdr%'`);
  await db.execute(sql`
    insert into cases (tracking_no, doctor_user_id, clinic_id, first_name, last_name, dob, arches, nature,
      aligner_shipment, complaint, impression_type, image_type, midline, overjet, overbite, cross_bite,
      status, terms_accepted_at, created_at, created_by)
    select 'BN-' || lpad(g::text, 8, '0'), b.user_id, b.clinic_id, 'Patient' || g, 'Family' || (g % 977),
      date '1970-01-01' + (g % 15000), 'Both', 'Local', 'Batches', 'Crowding', 'PVS Impression', 'Individual',
      'Improve', 'Improve', 'Improve', 'Correct', (array['new','inprogress','dispatched','delivered'])[1 + g % 4],
      now(), now() - make_interval(mins => g), b.user_id
    from generate_series(1, ${caseCount}) g join bench_doctors b on b.slot = g % ${doctorCount}`);
  await db.execute(sql`analyze`);
}

/** A fresh database: a new PostgreSQL database, or a PGlite folder the portal then opens. */
async function freshDatabase(dataDir: string) {
  if (!process.env.DATABASE_URL) {
    return {
      env: { DATABASE_URL: '' },
      connect: () => connectDatabase({ dataDir: path.join(dataDir, 'pglite') }),
      drop: async () => {},
    };
  }
  const name = `portal_bench_${process.pid}`;
  const adminClient = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await adminClient.connect();
  await adminClient.query(`drop database if exists ${name} with (force)`);
  await adminClient.query(`create database ${name}`);
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    connect: () => connectDatabase({ url: url.toString() }),
    drop: async () => {
      await adminClient.query(`drop database if exists ${name} with (force)`);
      await adminClient.end();
    },
  };
}

/** The same kind of process as the portal, with one Fastify route and nothing else. */
async function startBareFastify(databaseUrl?: string) {
  const port = await freePort();
  // /bare answers from memory; /bare-db runs one `select 1` per request (PostgreSQL only):
  // about the most any route that reads the database can do on this machine.
  const program = `import Fastify from 'fastify'; import pg from 'pg';
    const app = Fastify(); app.get('/bare', async () => ({ ok: true }));
    if (process.env.DATABASE_URL) {
      const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
      app.get('/bare-db', async () => (await pool.query('select 1 as ok')).rows[0]);
    }
    await app.listen({ port: ${port}, host: '127.0.0.1' }); console.log('up');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', program], {
    cwd: path.resolve(import.meta.dirname, '../apps/server'),
    env: { ...process.env, DATABASE_URL: databaseUrl ?? '' },
  });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  return {
    url: `http://127.0.0.1:${port}/bare`,
    dbUrl: databaseUrl ? `http://127.0.0.1:${port}/bare-db` : undefined,
    stop: () => child.kill(),
  };
}

async function load(url: string, token?: string) {
  const result = await autocannon({
    url,
    connections: 10,
    duration: seconds,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

export async function runListBenchmark() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-lists-'));
  const database = await freshDatabase(dataDir);
  const started = Date.now();
  const connection = await database.connect();
  await prepareDatabase(connection, quietLog as never, admin);
  await seed(connection);
  await connection.close();
  console.log(`\nSeeded ${caseCount} cases over ${doctorCount} doctors in ${fixed((Date.now() - started) / 1000)} s`);
  const portal = await startPortal({ DATA_DIR: dataDir, ...database.env }, { quiet: true });
  const bare = await startBareFastify(database.env.DATABASE_URL || undefined);
  try {
    const staff = await login(portal.baseUrl, admin.username, admin.password);
    const doctor = await login(portal.baseUrl, 'benchdr500', 'bench-pass');
    const api = `${portal.baseUrl}/api/case`;
    const bareResult = await load(bare.url);
    const rows = [
      { what: 'bare Fastify route', ...bareResult },
      ...(bare.dbUrl ? [{ what: 'bare Fastify + select 1', ...(await load(bare.dbUrl)) }] : []),
      {
        what: 'paged list, doctor',
        ...(await load(`${api}/get_cases_by_status/all/0?page=1&pageSize=10&sort=-CreatedAt`, doctor.token)),
      },
      {
        what: 'paged list, staff',
        ...(await load(`${api}/get_cases_by_status/all/0?page=1&pageSize=10&sort=-CreatedAt`, staff.token)),
      },
      {
        what: 'paged list, staff, new',
        ...(await load(`${api}/get_cases_by_status/new/0?page=3&pageSize=20&sort=-CreatedAt`, staff.token)),
      },
      { what: 'stats, doctor', ...(await load(`${api}/get_all_stats/0`, doctor.token)) },
      { what: 'stats, staff', ...(await load(`${api}/get_all_stats/0`, staff.token)) },
    ];
    printTable(
      `Lists: ${caseCount} cases, ${doctorCount} doctors (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}), autocannon 10 connections x ${seconds} s`,
      rows.map((row) => ({
        what: row.what,
        'requests/s': fixed(row.rps, 0),
        'p99 ms': row.p99,
        '% of bare': fixed((row.rps / bareResult.rps) * 100, 0),
      })),
    );
    return rows;
  } finally {
    bare.stop();
    await portal.stop();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runListBenchmark();
}
