import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import path from 'node:path';
import { tightenTree } from '../lib/owner-only.ts';
import { serverRoot } from '../server-root.ts';
import * as schema from './schema.ts';

type Schema = typeof schema;
/** One handle type for both drivers, so every query is written once. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** The handle inside `db.transaction(...)`, for functions that must run within one. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** Where lost PostgreSQL connections are reported: the app's logger. */
interface DatabaseLog {
  warn(details: object, message: string): void;
}

export interface DatabaseConnection {
  db: Database;
  driver: 'pglite' | 'postgres';
  /** PostgreSQL only: where it is, for connections of their own (LISTEN for live events). */
  connectionString?: string;
  migrate(): Promise<void>;
  /** Runs `work` while holding a cluster-wide lock, so two processes never migrate at once. */
  withStartupLock<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` unless another process holds the housekeeping lock (then `undefined` at
   * once, without waiting): one process at a time sweeps what killed uploads left.
   */
  tryWithHousekeepingLock<T>(work: () => Promise<T>): Promise<T | undefined>;
  close(): Promise<void>;
  /** Each pool's connections now: in use, idle, and queries waiting for one (metrics). */
  poolUsage(): PoolUsage[];
  /** PGlite only: the whole data directory, to start copies from (tests, backups). */
  dumpDataDir?(compression?: 'none' | 'gzip'): Promise<Blob>;
  /**
   * Where lost connections are logged (warn): buildApp sets its logger, since the process
   * connects before it has the app. Unset, they are dropped; either way the process lives on.
   */
  log?: DatabaseLog;
}

export interface PoolUsage {
  pool: string;
  inUse: number;
  idle: number;
  waiting: number;
}

const usageOf = (pool: string, pg: pg.Pool): PoolUsage => ({
  pool,
  inUse: pg.totalCount - pg.idleCount,
  idle: pg.idleCount,
  waiting: pg.waitingCount,
});

/**
 * PostgreSQL: each handle's twin whose connections keep one plan per named statement
 * (`plan_cache_mode = force_generic_plan`), for statements built so that their plan is the
 * same whatever their values (keptPlans).
 */
const keptPlanHandles = new WeakMap<Database, Database>();

/**
 * Where to prepare a statement whose plan does not depend on its values: on PostgreSQL, the
 * connections that plan each named statement once; elsewhere `db` itself. PostgreSQL's own
 * choice plans a statement again for every execution while its values change the estimates:
 * a staff-wide search's bound names did, and planning it cost 1.1 ms of its 2.5 ms at a
 * million cases (search-cases.ts preparedSearch).
 */
export const keptPlans = (db: Database): Database => keptPlanHandles.get(db) ?? db;

/**
 * A pool whose lost connections never take the process down (the next query reconnects):
 * their errors go to `onError`, not to the process's uncaught handler.
 */
function connectionPool(config: pg.PoolConfig, onError: (error: Error) => void) {
  const pool = new pg.Pool({ connectionTimeoutMillis: 5000, ...config });
  // The pool listens only to idle clients, so a client checked out for a transaction gets its
  // own listener: the query in flight still fails (503), the process does not.
  pool.on('error', onError);
  pool.on('connect', (client) => client.on('error', onError));
  return pool;
}

const startupLockKey = 7_351_208;
const housekeepingLockKey = 7_351_209;
const migrationsFolder = path.join(serverRoot, 'drizzle');

/** PostgreSQL when `url` is given, otherwise embedded PGlite stored in `dataDir` (or memory). */
export async function connectDatabase(options: {
  url?: string;
  dataDir?: string;
  loadDataDir?: Blob;
}): Promise<DatabaseConnection> {
  if (options.url) {
    const logLost = (error: Error) =>
      connection.log?.warn({ err: error }, 'database connection lost (a query on it fails, the next one reconnects)');
    const pool = connectionPool({ connectionString: options.url, max: 10 }, logLost);
    const keptPlansPool = connectionPool(
      { connectionString: options.url, max: 4, options: '-c plan_cache_mode=force_generic_plan' },
      logLost,
    );
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    keptPlanHandles.set(db, drizzlePg(keptPlansPool, { schema }) as unknown as Database);
    const connection: DatabaseConnection = {
      db,
      driver: 'postgres',
      connectionString: options.url,
      migrate: () => migratePg(drizzlePg(pool), { migrationsFolder }),
      async withStartupLock(work) {
        const client = await pool.connect();
        try {
          await client.query('select pg_advisory_lock($1)', [startupLockKey]);
          return await work();
        } finally {
          await client.query('select pg_advisory_unlock($1)', [startupLockKey]).catch(() => {});
          client.release();
        }
      },
      async tryWithHousekeepingLock(work) {
        // A session lock on one client of the pool, released on that same client.
        const client = await pool.connect();
        try {
          const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [
            housekeepingLockKey,
          ]);
          if (!rows[0]?.locked) return undefined;
          try {
            return await work();
          } finally {
            await client.query('select pg_advisory_unlock($1)', [housekeepingLockKey]).catch(() => {});
          }
        } finally {
          client.release();
        }
      },
      close: async () => {
        await Promise.all([pool.end(), keptPlansPool.end()]);
      },
      poolUsage: () => [usageOf('main', pool), usageOf('kept_plans', keptPlansPool)],
    };
    return connection;
  }
  // Loaded only here: PGlite's WebAssembly build costs a server on PostgreSQL ~200 MB of RSS.
  const [{ PGlite }, { pg_trgm }, { unaccent }, { drizzle: drizzlePglite }, { migrate: migratePglite }] =
    await Promise.all([
      import('@electric-sql/pglite'),
      import('@electric-sql/pglite/contrib/pg_trgm'),
      import('@electric-sql/pglite/contrib/unaccent'),
      import('drizzle-orm/pglite'),
      import('drizzle-orm/pglite/migrator'),
    ]);
  // pg_trgm backs the case search indexes and unaccent its accent-blind names, as on PostgreSQL.
  const client = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    extensions: { pg_trgm, unaccent },
  });
  // PGlite sets its files' modes itself, ignoring the umask (its new database's files are 0666):
  // made owner-only once open and again once closed (lib/owner-only.ts).
  const restrict = async () => {
    if (options.dataDir && !options.dataDir.includes('://')) await tightenTree(options.dataDir);
  };
  await restrict();
  // PGlite is one connection that runs one query or transaction at a time: those begun and
  // not finished are the one in use and the rest waiting. Each passes through this lock once.
  let begun = 0;
  const runExclusive = client._runExclusiveTransaction.bind(client);
  client._runExclusiveTransaction = <T>(work: () => Promise<T>) => {
    begun++;
    return runExclusive(work).finally(() => begun--);
  };
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    driver: 'pglite',
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder }),
    // PGlite belongs to this one process.
    withStartupLock: (work) => work(),
    tryWithHousekeepingLock: (work) => work(),
    close: async () => {
      await client.close();
      await restrict();
    },
    poolUsage: () => [
      { pool: 'pglite', inUse: Math.min(begun, 1), idle: begun > 0 ? 0 : 1, waiting: Math.max(begun - 1, 0) },
    ],
    dumpDataDir: (compression = 'none') => client.dumpDataDir(compression),
  };
}
