import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import { serverRoot } from '../server-root.ts';
import { BackupError } from './backup-error.ts';

/**
 * A backup is one tar stream (docs/decisions/backups.md § Backup archives): `manifest.json` first, then
 * the database, the stored files (`files/<key>`) or, with S3, `objects.json` (each object's key,
 * size and SHA-256), and last `checksums.json`: every entry's size and SHA-256. An archive
 * without that last entry is truncated; an entry that does not match it was changed.
 */
export const archiveFormat = 1;
export const manifestName = 'manifest.json';
export const checksumsName = 'checksums.json';
export const objectsName = 'objects.json';
export const databaseEntry = { pglite: 'database/pglite.tar.gz', postgres: 'database/postgres.dump' } as const;
export const filesPrefix = 'files/';

/** The migrations applied to a database: how many, and the `when` of the latest (drizzle's `created_at`). */
export interface SchemaVersion {
  migrations: number;
  latest: number;
}

export interface BackupManifest {
  format: number;
  createdAt: string;
  database: 'pglite' | 'postgres';
  storage: 'local' | 's3';
  schema: SchemaVersion;
}

export interface EntrySum {
  name: string;
  size: number;
  sha256: string;
}

export interface StoredObjectSum {
  key: string;
  size: number;
  sha256: string;
}

/** The latest migration this portal knows: the last entry of drizzle's journal. */
export function knownSchemaLatest(): number {
  const journal = JSON.parse(readFileSync(path.join(serverRoot, 'drizzle/meta/_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

/** A SHA-256 and byte count of what passes through. */
export function hashing() {
  const hash = createHash('sha256');
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  return { stream, result: () => ({ size, sha256: hash.digest('hex') }) };
}

/** Writes entries one after another into a tar stream, keeping each one's size and SHA-256 for the trailer. */
export class ArchiveWriter {
  readonly output: tar.Pack = tar.pack();
  private readonly sums: EntrySum[] = [];

  /** `size` must be exactly the bytes `source` gives (tar headers come before the bytes). */
  async add(name: string, size: number, source: Readable): Promise<EntrySum> {
    const entry = this.output.entry({ name, size, mtime: new Date(0) });
    const digest = hashing();
    await pipeline(source, digest.stream, entry);
    const sum = { name, ...digest.result() };
    this.sums.push(sum);
    return sum;
  }

  addJson(name: string, value: unknown): Promise<EntrySum> {
    const bytes = Buffer.from(JSON.stringify(value, null, 1));
    return this.add(name, bytes.length, Readable.from([bytes]));
  }

  async finish(): Promise<void> {
    const trailer = Buffer.from(JSON.stringify({ entries: this.sums }, null, 1));
    await pipeline(
      Readable.from([trailer]),
      this.output.entry({ name: checksumsName, size: trailer.length, mtime: new Date(0) }),
    );
    this.output.finalize();
  }
}

const entryName =
  /^(manifest\.json|objects\.json|checksums\.json|database\/(pglite\.tar\.gz|postgres\.dump)|files\/[a-z0-9][a-z0-9/_.-]*)$/i;

/** Refuses entry names that are not the format's, or that would climb out of the staging folder. */
export function checkEntryName(name: string): void {
  if (!entryName.test(name) || name.split('/').some((part) => part === '..' || part === '.' || part === '')) {
    throw new BackupError(
      `The archive holds an entry it should not ("${name.slice(0, 80)}"): it is not a portal backup, or it was changed`,
    );
  }
}

/**
 * Reads a tar stream entry by entry: `onEntry` gets each entry's name and bytes (it must consume
 * them); the trailer is checked against what was read. Throws a BackupError for anything amiss.
 */
export async function readArchive(
  input: Readable,
  onEntry: (name: string, bytes: Readable) => Promise<void>,
): Promise<void> {
  const extract = tar.extract();
  const feeding = pipeline(input, extract).catch((error: unknown) => {
    extract.destroy(error as Error);
    throw error;
  });
  // Awaited below, but it can fail first, while `onEntry` still writes the last entry out (the
  // input cut off in the next one's header): unhandled until then, it ended the process.
  feeding.catch(() => {});
  const read = new Map<string, EntrySum>();
  let trailer: { entries: EntrySum[] } | undefined;
  try {
    for await (const entry of extract) {
      const name = entry.header.name;
      if (trailer) throw new BackupError('The archive goes on after its checksums: it was changed');
      if (read.size === 0 && name !== manifestName)
        throw new BackupError('This is not a portal backup (it does not start with its manifest)');
      if (name === checksumsName) {
        const chunks: Buffer[] = [];
        for await (const chunk of entry) chunks.push(chunk as Buffer);
        trailer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { entries: EntrySum[] };
        continue;
      }
      checkEntryName(name);
      if (read.has(name)) throw new BackupError(`The archive holds "${name}" twice: it was changed`);
      const digest = hashing();
      const bytes = new PassThrough();
      await Promise.all([pipeline(entry, digest.stream, bytes), onEntry(name, bytes)]);
      read.set(name, { name, ...digest.result() });
    }
    await feeding;
  } catch (error) {
    input.destroy();
    extract.destroy();
    await feeding.catch(() => {});
    throw asArchiveError(error);
  }
  if (!trailer) throw new BackupError('The archive is truncated: its checksums at the end are missing');
  const expected = new Map(trailer.entries.map((sum) => [sum.name, sum]));
  for (const [name, sum] of read) {
    const wanted = expected.get(name);
    if (!wanted || wanted.size !== sum.size || wanted.sha256 !== sum.sha256) {
      throw new BackupError(`"${name}" in the archive does not match its checksum: the archive was changed or damaged`);
    }
  }
  if (expected.size !== read.size)
    throw new BackupError("Entries listed in the archive's checksums are missing: it was changed");
}

/** Errors of the tar parser and the decryption in words for the operator; our own pass through. */
function asArchiveError(error: unknown): Error {
  if (error instanceof BackupError) return error;
  if (error instanceof SyntaxError)
    return new BackupError("The archive's checksums are unreadable: it was changed or damaged");
  const message = (error as Error).message ?? String(error);
  if (/unexpected end|premature|truncat/i.test(message))
    return new BackupError('The archive is truncated: it ends in the middle of an entry');
  if (/header|checksum|tar/i.test(message)) return new BackupError(`The archive is damaged (${message})`);
  return error as Error;
}
