import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { spawn } from 'node:child_process';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { PasswordHasher } from '../auth/passwords.ts';
import type { Config } from '../config.ts';
import { connectDatabase, type DatabaseConnection } from '../db/client.ts';
import { prepareDatabase } from '../db/prepare.ts';
import { createStorage } from '../storage/create-storage.ts';
import {
  archiveFormat,
  databaseEntry,
  filesPrefix,
  knownSchemaLatest,
  manifestName,
  objectsName,
  readArchive,
  type BackupManifest,
  type StoredObjectSum,
} from './archive.ts';
import { BackupError } from './backup-error.ts';
import { ownerOnlyFile, ownerOnlyFolder } from '../lib/owner-only.ts';
import { readReferencedKeys, readSchemaVersion } from './database-facts.ts';
import { connectToPortal, runTool } from './database-snapshot.ts';
import { decryptingStream, encryptedMagic } from './encryption.ts';

export interface RestoreSummary {
  manifest: BackupManifest;
  files: number;
  objects: number;
  /** Migrations applied after the restore (an archive of an older portal). */
  migrated: number;
}

const describeDay = (when: number) => new Date(when).toISOString().slice(0, 10);
const hasEntries = (folder: string) =>
  readdir(folder).then(
    (names) => names.length > 0,
    () => false,
  );

/**
 * Restores an archive into an empty DATA_DIR or database (or, with `force`, over what is
 * there). Everything is read, checked and loaded beside the target first (a staging folder in
 * DATA_DIR; PostgreSQL in one transaction), then switched into place: a refused or failed
 * restore leaves the target as it was (docs/decisions/backups.md § Restores).
 */
export async function restoreBackup(
  config: Config,
  file: string,
  options: { force: boolean },
): Promise<RestoreSummary> {
  const kind = config.databaseUrl ? 'postgres' : 'pglite';
  const storageKind = config.s3 ? 's3' : 'local';
  await checkTarget(config, options.force);
  await mkdir(config.dataDir, { recursive: true, mode: ownerOnlyFolder });
  const staging = await mkdtemp(path.join(config.dataDir, '.restore-'));
  try {
    const staged = await stageArchive(config, file, staging, { kind, storageKind });
    if (staged.objects) await checkObjects(config, staged.objects);
    const migrated =
      kind === 'pglite'
        ? await loadPglite(config, staging, staged.keys)
        : await loadPostgres(config, path.join(staging, 'database'), staged.keys, options.force);
    if (storageKind === 'local')
      await switchIntoPlace(path.join(staging, 'files'), path.join(config.dataDir, 'files'), staging);
    if (kind === 'pglite')
      await switchIntoPlace(path.join(staging, 'pglite'), path.join(config.dataDir, 'pglite'), staging);
    return { manifest: staged.manifest, files: staged.files, objects: staged.objects?.length ?? 0, migrated };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Refuses a running portal (PGlite) and a target that holds data, unless forced. */
async function checkTarget(config: Config, force: boolean): Promise<void> {
  if (!config.databaseUrl) {
    const socket = await connectToPortal(config.dataDir);
    if (socket) {
      socket.destroy();
      throw new BackupError(`A portal is running on ${config.dataDir}: stop it before restoring`);
    }
  }
  if (force) return;
  const holding: string[] = [];
  if (config.databaseUrl) {
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ tables: number }>(
        "select count(*)::int as tables from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')",
      );
      if (rows[0]!.tables > 0) holding.push(`the database (${rows[0]!.tables} tables)`);
    } finally {
      await client.end();
    }
  } else if (await hasEntries(path.join(config.dataDir, 'pglite'))) {
    holding.push(path.join(config.dataDir, 'pglite'));
  }
  if (!config.s3 && (await hasEntries(path.join(config.dataDir, 'files'))))
    holding.push(path.join(config.dataDir, 'files'));
  if (holding.length > 0) {
    throw new BackupError(
      `Not restoring over data: ${holding.join(' and ')} ${holding.length > 1 ? 'are' : 'is'} not empty. Restore into an empty one, or add --force to replace what is there`,
    );
  }
}

/** The archive's bytes, decrypted when it is encrypted (it says so in its first bytes). */
async function openArchive(file: string, backupKey: string | undefined): Promise<Readable> {
  const handle = await open(file).catch((error: NodeJS.ErrnoException) => {
    throw new BackupError(`Cannot read ${file} (${error.code ?? error.message})`);
  });
  const start = Buffer.alloc(encryptedMagic.length);
  await handle.read(start, 0, start.length, 0);
  await handle.close();
  const input = createReadStream(file);
  if (!start.equals(encryptedMagic)) return input;
  if (!backupKey) throw new BackupError('This archive is encrypted: set BACKUP_KEY to the key it was made with');
  const decrypted = decryptingStream(backupKey);
  input.once('error', (error) => decrypted.destroy(error));
  return input.pipe(decrypted);
}

/** Reads the whole archive into `staging`, checking it as it goes; nothing outside `staging` is touched. */
async function stageArchive(
  config: Config,
  file: string,
  staging: string,
  target: { kind: 'pglite' | 'postgres'; storageKind: 'local' | 's3' },
) {
  let manifest: BackupManifest | undefined;
  let objects: StoredObjectSum[] | undefined;
  const keys = new Set<string>();
  await readArchive(await openArchive(file, config.backupKey), async (name, bytes) => {
    if (name === manifestName) {
      manifest = checkManifest(JSON.parse((await readAll(bytes)).toString('utf8')) as BackupManifest, target);
    } else if (name === objectsName) {
      objects = (JSON.parse((await readAll(bytes)).toString('utf8')) as { objects: StoredObjectSum[] }).objects;
      for (const object of objects) keys.add(object.key);
    } else if (name === databaseEntry[target.kind]) {
      await pipeline(bytes, createWriteStream(path.join(staging, 'database'), { mode: ownerOnlyFile }));
    } else if (name.startsWith(filesPrefix) && target.storageKind === 'local') {
      const key = name.slice(filesPrefix.length);
      const destination = path.join(staging, 'files', key);
      await mkdir(path.dirname(destination), { recursive: true, mode: ownerOnlyFolder });
      await pipeline(bytes, createWriteStream(destination, { flags: 'wx', mode: ownerOnlyFile }));
      keys.add(key);
    } else {
      throw new BackupError(`The archive holds "${name}", which does not belong in it: it was changed`);
    }
  });
  if (!manifest) throw new BackupError('This is not a portal backup (it has no manifest)');
  if (!(await stat(path.join(staging, 'database')).catch(() => undefined))) {
    throw new BackupError('The archive holds no database: it was changed');
  }
  if (target.storageKind === 'local')
    await mkdir(path.join(staging, 'files'), { recursive: true, mode: ownerOnlyFolder });
  return { manifest, objects, keys, files: target.storageKind === 'local' ? keys.size : 0 };
}

async function readAll(bytes: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of bytes) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function checkManifest(manifest: BackupManifest, target: { kind: string; storageKind: string }): BackupManifest {
  if (manifest.format !== archiveFormat) {
    throw new BackupError(
      `This archive has format ${manifest.format}, made by a newer version of the portal; upgrade the portal first`,
    );
  }
  const known = knownSchemaLatest();
  if (manifest.schema.latest > known) {
    throw new BackupError(
      `This archive is from a newer version of the portal (its schema is of ${describeDay(manifest.schema.latest)}, ` +
        `this portal knows up to ${describeDay(known)}); upgrade the portal first`,
    );
  }
  if (manifest.database !== target.kind) {
    throw new BackupError(
      manifest.database === 'pglite'
        ? 'This archive holds an embedded (PGlite) database: restore it with DATABASE_URL unset'
        : 'This archive holds a PostgreSQL database: restore it with DATABASE_URL set to an empty database',
    );
  }
  if (manifest.storage !== target.storageKind) {
    throw new BackupError(
      manifest.storage === 's3'
        ? 'This archive lists files in an S3 bucket: restore it with S3_BUCKET and its settings set'
        : 'This archive holds files of DATA_DIR/files: restore it with S3_BUCKET unset',
    );
  }
  return manifest;
}

/** S3: every object the archive lists is in the bucket, with its size (the bucket keeps the bytes). */
async function checkObjects(config: Config, objects: StoredObjectSum[]): Promise<void> {
  const storage = await createStorage(config);
  const missing: string[] = [];
  for (const object of objects) {
    const found = await storage.stat(object.key);
    if (found?.size !== object.size) missing.push(object.key);
  }
  if (missing.length > 0) {
    throw new BackupError(
      `${missing.length} of the ${objects.length} objects the archive lists are missing from bucket ${config.s3!.bucket} or differ in size ` +
        `(first: ${missing[0]}); recover them from the bucket's versions or replica first`,
    );
  }
}

/** Migrations and seeds as at a start: an older archive's database is brought up to this portal. */
async function prepareRestored(config: Config, database: DatabaseConnection, keys: Set<string>): Promise<number> {
  const missing = (await readReferencedKeys(database.db)).filter((key) => !keys.has(key));
  if (missing.length > 0) {
    throw new BackupError(
      `${missing.length} stored files the database refers to are not in the archive (first: ${missing[0]})`,
    );
  }
  const before = (await readSchemaVersion(database.db)).migrations;
  const log = { info: () => {} };
  await prepareDatabase(database, log, {
    admin: {
      username: config.adminUsername,
      password: config.adminPassword,
      email: config.adminEmail,
      passwords: new PasswordHasher(config.passwordHashing),
    },
    // An archive from before the lab's settings were kept in the database takes this start's.
    labSettings: config.firstStartSettings,
  });
  return (await readSchemaVersion(database.db)).migrations - before;
}

async function loadPglite(config: Config, staging: string, keys: Set<string>): Promise<number> {
  const dump = new Blob([await readFile(path.join(staging, 'database'))]);
  const database = await connectDatabase({ dataDir: path.join(staging, 'pglite'), loadDataDir: dump });
  try {
    return await prepareRestored(config, database, keys);
  } finally {
    await database.close();
  }
}

const dropEverything =
  'drop schema if exists drizzle cascade; drop schema if exists public cascade; create schema public;';

/**
 * PostgreSQL: pg_restore's SQL run by psql in one transaction (with `force`, after dropping
 * what is there, in the same transaction): it all applies or none of it.
 */
async function loadPostgres(config: Config, dumpFile: string, keys: Set<string>, force: boolean): Promise<number> {
  const url = config.databaseUrl!;
  const restore = spawn('pg_restore', ['--no-owner', '--no-privileges', '--file=-', dumpFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let restoreErrors = '';
  restore.stderr.on('data', (chunk: Buffer) => (restoreErrors += chunk.toString()));
  const restored = new Promise<void>((resolve, reject) => {
    restore.once('error', reject);
    restore.once('close', (code) =>
      code === 0 ? resolve() : reject(new BackupError(`pg_restore failed (exit ${code}): ${restoreErrors.trim()}`)),
    );
  });
  const script = (async function* () {
    if (force) yield Buffer.from(`${dropEverything}\n`);
    yield* restore.stdout;
  })();
  await Promise.all([
    runTool('psql', ['--no-psqlrc', '--quiet', '--single-transaction', '--set=ON_ERROR_STOP=1', `--dbname=${url}`], {
      stdin: Readable.from(script),
    }),
    restored,
  ]);
  const database = await connectDatabase({ url });
  try {
    return await prepareRestored(config, database, keys);
  } catch (error) {
    // What was restored goes again: the database is left empty, as it was (or as --force made it).
    await database.db.execute(sql.raw(dropEverything)).catch(() => {});
    throw error;
  } finally {
    await database.close();
  }
}

/** Moves `staged` to `target`; what `target` held (empty, or replaced by --force) goes into `staging`, removed after. */
async function switchIntoPlace(staged: string, target: string, staging: string): Promise<void> {
  if (await stat(target).catch(() => undefined))
    await rename(target, path.join(staging, `replaced-${path.basename(target)}`));
  await rename(staged, target);
}
