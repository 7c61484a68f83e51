import { spawn } from 'node:child_process';
import { access } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { connectDatabase } from '../db/client.ts';
import type { SchemaVersion } from './archive.ts';
import { BackupError } from './backup-error.ts';
import { backupSocketPath } from './backup-socket.ts';
import {
  readReferencedKeys,
  readSchemaVersion,
  referencedKeysQuery,
  schemaVersionQuery,
  toSchemaVersion,
} from './database-facts.ts';

/**
 * The database at one moment, ready to be written into an archive: its bytes (PGlite's gzipped
 * data directory, or pg_dump's custom format in a file), its schema, and the storage keys its
 * rows refer to when they could be read in that same moment.
 */
export interface DatabaseSnapshot {
  kind: 'pglite' | 'postgres';
  schema: SchemaVersion;
  bytes?: Buffer;
  file?: string;
  /** Unknown when the running portal made the dump: it holds deletions instead. */
  referencedKeys?: string[];
  /** Lets the portal delete files again (PGlite through the portal). */
  release(): Promise<void>;
}

/** Runs a program, failing with its own last words; a missing program is named with what provides it. */
export function runTool(
  program: string,
  args: string[],
  options: { stdin?: NodeJS.ReadableStream } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: [options.stdin ? 'pipe' : 'ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      errors = (errors + chunk.toString()).slice(-2000);
    });
    if (options.stdin) options.stdin.pipe(child.stdin!);
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new BackupError(
              `${program} was not found: install PostgreSQL's client tools (Debian: postgresql-client) of the server's major version`,
            )
          : error,
      ),
    );
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new BackupError(`${program} failed (exit ${code}): ${errors.trim()}`)),
    );
  });
}

/**
 * PostgreSQL: pg_dump of a snapshot this connection exports, and the keys read in that same
 * snapshot, so the files copied next are checked against exactly what the dump refers to.
 */
export async function postgresSnapshot(url: string, dumpFile: string): Promise<DatabaseSnapshot> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const { rows } = await client.query<{ id: string }>('select pg_export_snapshot() as id');
    const schema = toSchemaVersion((await client.query(schemaVersionQuery)).rows[0]);
    const referencedKeys = (await client.query<{ key: string }>(referencedKeysQuery)).rows.map((row) => row.key);
    await runTool('pg_dump', ['--format=custom', `--snapshot=${rows[0]!.id}`, `--file=${dumpFile}`, `--dbname=${url}`]);
    await client.query('commit');
    return { kind: 'postgres', schema, file: dumpFile, referencedKeys, release: async () => {} };
  } finally {
    await client.end();
  }
}

/**
 * PGlite: the running portal's dump through its socket (it holds deletions until `release`),
 * or, with no portal running, the data directory opened here.
 */
export async function pgliteSnapshot(dataDir: string): Promise<DatabaseSnapshot> {
  const fromPortal = await askRunningPortal(dataDir);
  if (fromPortal) return fromPortal;
  const pgliteDir = path.join(dataDir, 'pglite');
  if (
    !(await access(path.join(pgliteDir, 'PG_VERSION')).then(
      () => true,
      () => false,
    ))
  ) {
    throw new BackupError(`There is no portal database in ${pgliteDir}: set DATA_DIR to the portal's data folder`);
  }
  const database = await connectDatabase({ dataDir: pgliteDir });
  try {
    const schema = await readSchemaVersion(database.db);
    const referencedKeys = await readReferencedKeys(database.db);
    const bytes = Buffer.from(await (await database.dumpDataDir!('gzip')).arrayBuffer());
    return { kind: 'pglite', schema, bytes, referencedKeys, release: async () => {} };
  } finally {
    await database.close();
  }
}

/** A connection to a portal's backup socket in `dataDir`, or undefined when no portal listens there. */
export async function connectToPortal(dataDir: string): Promise<net.Socket | undefined> {
  const socket = net.connect(backupSocketPath(dataDir));
  const isConnected = await new Promise<boolean>((resolve, reject) => {
    socket.once('connect', () => resolve(true));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      ['ENOENT', 'ECONNREFUSED'].includes(error.code ?? '') ? resolve(false) : reject(error),
    );
  });
  return isConnected ? socket : undefined;
}

/** The portal's answer on its backup socket, or undefined when no portal listens there. */
async function askRunningPortal(dataDir: string): Promise<DatabaseSnapshot | undefined> {
  const socket = await connectToPortal(dataDir);
  if (!socket) return undefined;
  socket.write('dump\n');
  const release = async () => {
    socket.end();
  };
  // Read by listener, not by `for await`: leaving that loop would close the socket, and with it the hold.
  return new Promise<DatabaseSnapshot>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let header: { schema: SchemaVersion; bytes: number } | undefined;
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
      if (!header) {
        const joined = Buffer.concat(chunks);
        const end = joined.indexOf(10);
        if (end < 0) return;
        header = JSON.parse(joined.subarray(0, end).toString('utf8')) as { schema: SchemaVersion; bytes: number };
        chunks.splice(0, chunks.length, joined.subarray(end + 1));
        received = joined.length - end - 1;
      }
      if (received < header.bytes) return;
      socket.off('data', onData);
      socket.pause();
      resolve({
        kind: 'pglite',
        schema: header.schema,
        bytes: Buffer.concat(chunks).subarray(0, header.bytes),
        release,
      });
    };
    socket.on('data', onData);
    socket.once('error', fail);
    socket.once('end', () =>
      fail(new BackupError('The running portal stopped answering before its database dump was complete (see its log)')),
    );
  });
}
