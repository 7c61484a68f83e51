/**
 * The case lists' "Off track" filter (issue 42, docs/decisions/progress-scans.md § Off track on
 * the lists): the portal's own findCases on bench/lists.ts's seeded cases, with every 50th and
 * then every 3rd case marked off track, beside the same lists unfiltered. Median and 98th
 * percentile of 50 runs after 5; on PostgreSQL, the plan of the newest-first page and its count.
 *   BENCH_CASES=200000   DATABASE_URL=... to run on PostgreSQL   BENCH_DATABASE=name: keep the seeded database
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CaseListQuery } from '@portal/contract';
import { sql } from 'drizzle-orm';
import { prepareDatabase } from '../apps/server/src/db/prepare.ts';
import type { CaseListScope } from '../apps/server/src/services/cases/case-rows.ts';
import { findCases } from '../apps/server/src/services/cases/list-cases.ts';
import { fixed, printTable } from './lib/measure.ts';
import { admin, freshDatabase, quietLog, seed } from './lists.ts';

const runs = 50;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export async function runOffTrackBenchmark() {
  const database = await freshDatabase(await mkdtemp(path.join(os.tmpdir(), 'portal-bench-off-track-')));
  const connection = await database.connect();
  try {
    const { db } = connection;
    await prepareDatabase(connection, quietLog as never, { admin });
    const [seeded] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from cases`));
    if (seeded!.n === 0) await seed(connection);
    const [counted] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from cases`));
    for (const every of [50, 3]) {
      await db.execute(sql`update cases set off_track = (case_id % ${every} = 0)`);
      await db.execute(sql`vacuum analyze cases`);
      const [{ doctor }] = rowsOf<{ doctor: number }>(
        await db.execute(sql`select doctor_user_id as doctor from cases where off_track limit 1`),
      ) as [{ doctor: number }];
      const staff = { doctorUserIds: null, status: 'all' } as const;
      const lists: [string, CaseListScope, CaseListQuery][] = [
        ['staff, all statuses, newest first', { ...staff, offTrack: true }, {}],
        ['staff, in progress', { ...staff, status: 'inprogress', offTrack: true }, {}],
        ['staff, sorted by last name', { ...staff, offTrack: true }, { sort: 'LastName' }],
        ['staff, page 3', { ...staff, offTrack: true }, { page: 3 }],
        ["a doctor's own", { doctorUserIds: [doctor], status: 'all', offTrack: true }, {}],
        ['staff, search "Anna"', { ...staff, offTrack: true }, { search: 'Anna' }],
        ['unfiltered staff list', staff, {}],
        ['unfiltered search "Anna"', staff, { search: 'Anna' }],
        ["a doctor's own, unfiltered", { doctorUserIds: [doctor], status: 'all' }, {}],
      ];
      const table = [];
      for (const [name, scope, query] of lists) {
        for (let i = 0; i < 5; i++) await findCases(db, scope, query);
        const times: number[] = [];
        let total = 0;
        for (let i = 0; i < runs; i++) {
          const started = performance.now();
          total = (await findCases(db, scope, query)).total;
          times.push(performance.now() - started);
        }
        times.sort((a, b) => a - b);
        table.push({
          list: name,
          matched: total,
          'median ms': fixed(times[runs / 2]!),
          'p98 ms': fixed(times[Math.floor(runs * 0.98) - 1]!),
        });
      }
      printTable(`Off track: every ${every}th case of ${counted!.n} marked`, table);
      if (process.env.DATABASE_URL) {
        for (const query of [
          'select case_id from cases where off_track order by created_at desc, case_id desc limit 10',
          `select count(*) from cases where off_track and status = 'inprogress'`,
        ]) {
          console.log(`\nEXPLAIN (ANALYZE, BUFFERS) ${query}:`);
          for (const row of rowsOf<{ 'QUERY PLAN': string }>(
            await db.execute(sql.raw(`explain (analyze, buffers) ${query}`)),
          ))
            console.log(`  ${row['QUERY PLAN']}`);
        }
      }
    }
  } finally {
    await connection.close();
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runOffTrackBenchmark();
}
