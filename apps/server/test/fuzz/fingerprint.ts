import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { TestApp } from '../helpers/test-app.ts';

/**
 * Every table a route can write. The outbox counts inserts, deletes and changes of what is
 * sent, not the delivery columns: the dispatcher updates those after commit, whatever
 * request comes next. Sessions count being started and ended, not the last-seen time.
 */
const watchedTables: Record<string, string> = {
  roles: 'insert or update or delete',
  role_permissions: 'insert or update or delete',
  pages: 'insert or update or delete',
  users: 'insert or update or delete',
  doctors: 'insert or update or delete',
  clinics: 'insert or update or delete',
  password_reset_tokens: 'insert or update or delete',
  // Not last_seen_at: any signed-in request may move it, refused or not (at most once a minute).
  sessions: 'insert or delete',
  mail_outbox: 'insert or delete or update of recipient, template, subject',
  cases: 'insert or update or delete',
  case_attachments: 'insert or update or delete',
  case_status_history: 'insert or update or delete',
  case_counts: 'insert or update or delete',
};

/**
 * Counts every committed row write per table, in this test's own database: a row trigger
 * bumps a counter in the writing transaction, so a rolled-back write counts nothing and a
 * snapshot is one small query however large the tables grow.
 */
export async function watchRowWrites(t: TestApp): Promise<void> {
  await t.app.db.execute(sql.raw('create table fuzz_row_writes (table_name text primary key, writes bigint not null)'));
  await t.app.db.execute(
    sql.raw(`create function fuzz_count_row_write() returns trigger language plpgsql as $$
      begin
        update fuzz_row_writes set writes = writes + 1 where table_name = tg_table_name;
        return null;
      end $$`),
  );
  for (const [table, events] of Object.entries(watchedTables)) {
    await t.app.db.execute(sql.raw(`insert into fuzz_row_writes values ('${table}', 0)`));
    await t.app.db.execute(
      sql.raw(`create trigger fuzz_row_writes after ${events} on ${table}
        for each row execute function fuzz_count_row_write()`),
    );
  }
}

/** Table name -> rows written so far, plus "files" -> every stored file. */
export type Fingerprint = Record<string, string>;

/** Every stored file, by its path under DATA_DIR/files (keys are server-made and never reused). */
async function storedFiles(dataDir: string): Promise<string> {
  const folder = path.join(dataDir, 'files');
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort()
    .join('|');
}

const writesQuery = sql.raw('select table_name, writes::text as writes from fuzz_row_writes');

export async function fingerprint(t: TestApp): Promise<Fingerprint> {
  const result = (await t.app.db.execute(writesQuery)) as unknown as { rows: { table_name: string; writes: string }[] };
  const state: Fingerprint = Object.fromEntries(result.rows.map((row) => [row.table_name, row.writes]));
  state.files = await storedFiles(t.dataDir);
  return state;
}

/** The tables (or "files") that differ. */
export const changedParts = (before: Fingerprint, after: Fingerprint) =>
  Object.keys(after).filter((key) => before[key] !== after[key]);
