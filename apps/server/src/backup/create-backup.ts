import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config.ts';
import { createStorage } from '../storage/create-storage.ts';
import type { Storage } from '../storage/storage.ts';
import {
  ArchiveWriter,
  archiveFormat,
  databaseEntry,
  filesPrefix,
  hashing,
  manifestName,
  objectsName,
  type BackupManifest,
  type StoredObjectSum,
} from './archive.ts';
import { ownerOnlyFile } from '../lib/owner-only.ts';
import { BackupError } from './backup-error.ts';
import { pgliteSnapshot, postgresSnapshot, type DatabaseSnapshot } from './database-snapshot.ts';
import { encryptingStream } from './encryption.ts';

export interface BackupSummary {
  file: string;
  bytes: number;
  databaseBytes: number;
  files: number;
  objects: number;
  isEncrypted: boolean;
}

/** A file a snapshot's row refers to that was deleted before it was copied: the backup starts again. */
class VanishedFiles extends BackupError {}

const attempts = 3;

/**
 * Writes one archive of the database and the stored files while the portal serves
 * (docs/decisions/backups.md § Backups while the portal serves). It is written under a temporary name
 * and renamed at the end: `file` is either a whole archive or absent.
 */
export async function createBackup(config: Config, file: string): Promise<BackupSummary> {
  const storage = await createStorage(config);
  for (let attempt = 1; ; attempt++) {
    const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
    try {
      const summary = await writeArchive(config, storage, partial);
      await rename(partial, file);
      return { ...summary, file, bytes: (await stat(file)).size };
    } catch (error) {
      await rm(partial, { force: true });
      if (!(error instanceof VanishedFiles) || attempt === attempts) throw error;
    }
  }
}

async function writeArchive(
  config: Config,
  storage: Storage,
  partial: string,
): Promise<Omit<BackupSummary, 'file' | 'bytes'>> {
  const snapshot = config.databaseUrl
    ? await postgresSnapshot(config.databaseUrl, `${partial}.db`)
    : await pgliteSnapshot(config.dataDir);
  const writer = new ArchiveWriter();
  // The archive holds the whole database: the owner's alone, whatever the umask.
  const output = createWriteStream(partial, { flags: 'wx', mode: ownerOnlyFile });
  const archive = writer.output as unknown as Readable;
  const written = config.backupKey
    ? pipeline(archive, await encryptingStream(config.backupKey), output)
    : pipeline(archive, output);
  // A failure of the output (a full disk) ends the entries' writes too.
  written.catch(() => writer.output.destroy());
  try {
    const manifest: BackupManifest = {
      format: archiveFormat,
      createdAt: new Date().toISOString(),
      database: snapshot.kind,
      storage: config.s3 ? 's3' : 'local',
      schema: snapshot.schema,
    };
    await writer.addJson(manifestName, manifest);
    const databaseBytes = await addDatabase(writer, snapshot);
    const copied = config.s3
      ? await recordObjects(writer, storage)
      : await copyLocalFiles(writer, path.join(config.dataDir, 'files'));
    const missing = (snapshot.referencedKeys ?? []).filter((key) => !copied.has(key));
    if (missing.length > 0) {
      throw new VanishedFiles(
        `${missing.length} stored files were deleted while the backup ran (first: ${missing[0]}); run it again`,
      );
    }
    await writer.finish();
    await written;
    return {
      databaseBytes,
      files: config.s3 ? 0 : copied.size,
      objects: config.s3 ? copied.size : 0,
      isEncrypted: Boolean(config.backupKey),
    };
  } catch (error) {
    writer.output.destroy();
    await written.catch(() => {});
    throw error;
  } finally {
    await snapshot.release();
    if (snapshot.file) await rm(snapshot.file, { force: true });
  }
}

async function addDatabase(writer: ArchiveWriter, snapshot: DatabaseSnapshot): Promise<number> {
  const name = databaseEntry[snapshot.kind];
  if (snapshot.bytes) return (await writer.add(name, snapshot.bytes.length, Readable.from([snapshot.bytes]))).size;
  const size = (await stat(snapshot.file!)).size;
  return (await writer.add(name, size, createReadStream(snapshot.file!))).size;
}

/**
 * Every file in DATA_DIR/files but those still being written (`.partial`), each copied as far
 * as its size when opened (a resumable upload may still grow). A file deleted meanwhile is
 * skipped: with the portal holding deletions it is one no row of the dump refers to.
 */
async function copyLocalFiles(writer: ArchiveWriter, root: string): Promise<Set<string>> {
  const copied = new Set<string>();
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile() || entry.name.endsWith('.partial')) continue;
    const full = path.join(entry.parentPath, entry.name);
    const key = path.relative(root, full).split(path.sep).join('/');
    const handle = await open(full).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (!handle) continue;
    const { size } = await handle.stat();
    const source = size === 0 ? Readable.from([]) : handle.createReadStream({ start: 0, end: size - 1 });
    try {
      await writer.add(`${filesPrefix}${key}`, size, source);
    } finally {
      await handle.close().catch(() => {});
    }
    copied.add(key);
  }
  return copied;
}

/** S3: each object's key, size and SHA-256 (read through once), stored as `objects.json`. */
async function recordObjects(writer: ArchiveWriter, storage: Storage): Promise<Set<string>> {
  const objects: StoredObjectSum[] = [];
  for await (const { key } of storage.list('')) {
    const body = await storage.read(key).catch(() => undefined);
    if (!body) continue;
    const digest = hashing();
    // Read through to hash it; the bytes stay in the bucket.
    await pipeline(body, digest.stream, new Writable({ write: (_chunk, _encoding, done) => done() }));
    objects.push({ key, ...digest.result() });
  }
  await writer.addJson(objectsName, { objects });
  return new Set(objects.map((object) => object.key));
}
