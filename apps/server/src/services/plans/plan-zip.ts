import { stat } from 'node:fs/promises';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type yauzl from 'yauzl';
import { AppError, coded } from '../../lib/errors.ts';
import { planFileName } from './plan-files.ts';

/**
 * The limits a plan ZIP is read within (docs/decisions/plans.md § Treatment plans), in one place:
 * how many entries, and how much more than its compressed size one entry, and the whole
 * archive, may unpack to (measured on the bytes as they come out, not read from the
 * header). What they unpack to in all is held to MAX_UPLOAD_BYTES by the caller.
 */
export const planZipLimits = {
  maxEntries: 400,
  /** Past this many bytes out of one entry (or the archive) the ratio is checked; small files may compress well. */
  ratioGraceBytes: 1024 * 1024,
  /** Also over the whole archive: 400 entries each just under the grace would otherwise unpack 400 MiB from a few KiB. */
  maxEntryRatio: 100,
};

const zipBombMessage = 'The ZIP unpacks to far more than its size (a compression ratio over 100:1)';

/** A ZIP entry to store: its display name (basename only) and its bytes as they unpack. */
export interface ZipStageEntry {
  fileName: string;
  open(): Promise<Readable>;
}

const isIgnored = (path: string, base: string) =>
  path.endsWith('/') || path.split('/').some((segment) => segment === '__MACOSX') || base.startsWith('.');

/** How many bytes may come out of something `compressedSize` bytes long. */
const unpackCeiling = (compressedSize: number) =>
  Math.max(planZipLimits.ratioGraceBytes, planZipLimits.maxEntryRatio * compressedSize);

/** What has come out of the whole archive so far, against its own ceiling. */
interface ArchiveMeter {
  unpacked: number;
  ceiling: number;
}

/** Counts what comes out of one entry and stops it once the entry, or the archive, unpacks past the ratio. */
class RatioMeter extends Transform {
  private bytes = 0;
  private readonly ceiling: number;
  private readonly archive: ArchiveMeter;

  constructor(compressedSize: number, archive: ArchiveMeter) {
    super();
    this.ceiling = unpackCeiling(compressedSize);
    this.archive = archive;
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    this.archive.unpacked += chunk.length;
    if (this.bytes > this.ceiling || this.archive.unpacked > this.archive.ceiling) {
      return callback(new AppError(400, zipBombMessage));
    }
    callback(null, chunk);
  }
}

/** The ZIP reader's own reason (its English, shown as it is) inside a coded refusal. */
const zipError = (error: unknown) =>
  error instanceof AppError ? error : coded(400, 'zipUnreadable', { detail: (error as Error).message });

/**
 * Reads a spooled ZIP entry by entry (yauzl, lazyEntries, sizes validated), calling `each`
 * for every file that is not a folder, a __MACOSX file or a dot file, one at a time. Entry
 * names are decoded here (decodeStrings off) so that a name like `../../x.stl` is kept as
 * its basename instead of failing the archive: names are never used as paths.
 */
export async function readPlanZip(zipPath: string, each: (entry: ZipStageEntry) => Promise<void>): Promise<void> {
  // yauzl is loaded with the first plan ZIP, not by every start.
  const { default: zipReader } = await import('yauzl');
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(zipReader, zipPath);
  } catch (error) {
    throw zipError(error);
  }
  try {
    const archive: ArchiveMeter = { unpacked: 0, ceiling: unpackCeiling((await stat(zipPath)).size) };
    if (zip.entryCount > planZipLimits.maxEntries) {
      throw coded(400, 'zipTooManyEntries', { entries: zip.entryCount, maxEntries: planZipLimits.maxEntries });
    }
    for (;;) {
      const entry = await nextEntry(zip).catch((error: unknown) => {
        throw zipError(error);
      });
      if (!entry) break;
      const raw = entry.fileName as unknown as Buffer;
      const path = zipReader.getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, false);
      const fileName = planFileName(path);
      if (isIgnored(path, path.split('/').pop() ?? '')) continue;
      if (entry.isEncrypted()) throw coded(400, 'zipEntryEncrypted', { file: fileName });
      await each({
        fileName,
        open: async () => {
          const stream = await openEntry(zip, entry).catch((error: unknown) => {
            throw zipError(error);
          });
          const meter = new RatioMeter(entry.compressedSize, archive);
          stream.on('error', (error) => meter.destroy(zipError(error)));
          return stream.pipe(meter);
        },
      });
    }
  } finally {
    zip.close();
  }
}

function openZip(zipReader: typeof yauzl, zipPath: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    zipReader.open(
      zipPath,
      { lazyEntries: true, autoClose: false, validateEntrySizes: true, decodeStrings: false },
      (error, zip) => (error ? reject(error) : resolve(zip)),
    ),
  );
}

function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | undefined> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      zip.off('entry', onEntry).off('end', onEnd).off('error', onError);
    };
    const onEntry = (entry: yauzl.Entry) => (cleanup(), resolve(entry));
    const onEnd = () => (cleanup(), resolve(undefined));
    const onError = (error: Error) => (cleanup(), reject(error));
    zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
    zip.readEntry();
  });
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))),
  );
}
