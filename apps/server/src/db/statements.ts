import type { PGlite } from '@electric-sql/pglite';
import { DrizzleQueryError, fillPlaceholders, type Query } from 'drizzle-orm';
import pg from 'pg';
import type { Database } from './client.ts';

/** Each database's prepared statements by name (a bounded set: each caller names its shapes). */
const preparedStatements = new WeakMap<Database, Map<string, unknown>>();

/** The statement named `name`, prepared on first use for this database. */
export function preparedOnce<T>(db: Database, name: string, prepare: (name: string) => T): T {
  let byName = preparedStatements.get(db);
  if (!byName) preparedStatements.set(db, (byName = new Map()));
  let prepared = byName.get(name) as T | undefined;
  if (!prepared) byName.set(name, (prepared = prepare(name)));
  return prepared;
}

/**
 * A statement whose text drizzle wrote (`.toSQL()`) and the driver runs, through drizzle's
 * public `$client`: a named statement on PostgreSQL (parsed once per connection, as drizzle's
 * `.prepare(name)` is), its rows answered as arrays for `mapRows`. For the few statements
 * `.prepare(name)` cannot give: text drizzle does not write (a page written in as numbers),
 * rows cheaper to map by hand than by drizzle's mapping of every column. The rows come as the
 * driver's default parsers read them (drizzle keeps dates and timestamps as text instead), so
 * such a statement selects only text and integers. A failure is wrapped as drizzle wraps its
 * own (plugins/error-handler.ts reads the cause).
 */
export function arrayRowStatement<Row>(
  db: Database,
  name: string,
  query: Query,
  mapRows: (rows: unknown[][]) => Row[],
): { execute(values?: Record<string, unknown>): Promise<Row[]> } {
  const driver = (db as Database & { $client: pg.Pool | PGlite }).$client;
  return {
    async execute(values = {}) {
      const params = fillPlaceholders(query.params, values);
      try {
        const { rows } =
          driver instanceof pg.Pool
            ? await driver.query<unknown[]>({ name, text: query.sql, values: params, rowMode: 'array' })
            : await driver.query<unknown[]>(query.sql, params, { rowMode: 'array' });
        return mapRows(rows);
      } catch (error) {
        throw new DrizzleQueryError(query.sql, params, error as Error);
      }
    },
  };
}
