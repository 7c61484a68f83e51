import { FileStore } from '@tus/file-store';
import type { S3Store } from '@tus/s3-store';
import { ERRORS } from '@tus/server';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../../config.ts';
import { ownerOnlyFolder } from '../../lib/owner-only.ts';

/** The folder of the portal's storage that tus uploads are written to. */
export const uploadsFolder = 'uploads';

/** Where an upload's bytes are, as a key of the portal's own storage (`app.storage`). */
export const uploadStorageKey = (uploadId: string) => `${uploadsFolder}/${uploadId}`;

/**
 * tus's own id of an upload is its storage key, `uploads/<uploadId>`: both stores name the
 * finished bytes by the id (S3Store's object key; FileStore's file under DATA_DIR/files), so
 * the bytes land where the portal's storage finds them, with tus's bookkeeping beside them
 * (`.info` and `.part` objects, `.json` files). The URLs and the `uploads` table use the
 * bare `<uploadId>`.
 */
export const uploadIdOfTusId = (tusId: string) => tusId.slice(uploadsFolder.length + 1);

/** 16 random bytes in hex, as tus names uploads by default. */
export const newTusId = () => uploadStorageKey(randomBytes(16).toString('hex'));

/**
 * FileStore writing a PATCH body through 1 MiB buffers. Its own write sends every socket read
 * to the disk on its own (the default 16 KiB high-water mark, so each chunk waits for the
 * one before it) behind a Transform that only counts bytes, which the file stream counts too.
 * Everything else (paths, `.json` bookkeeping, offsets read from the file's size) is FileStore's.
 */
class LocalUploadStore extends FileStore {
  override async write(readable: Readable, tusId: string, offset: number): Promise<number> {
    const target = path.join(this.directory, tusId);
    // As FileStore's own check: an id never names a file outside the folder.
    if (!target.startsWith(this.directory + path.sep)) throw ERRORS.FILE_NOT_FOUND;
    const file = createWriteStream(target, {
      flags: 'r+',
      start: offset,
      highWaterMark: 1024 * 1024,
    });
    try {
      await pipeline(readable, file);
    } catch {
      throw ERRORS.FILE_WRITE_ERROR;
    }
    return offset + file.bytesWritten;
  }
}

/**
 * The tus data store over the same place as the portal's storage: the S3 bucket when
 * S3_BUCKET is set, else DATA_DIR/files. Either way a finished upload's bytes are at
 * `uploadStorageKey(id)` (also its tus id), so a case's attachment can point at them
 * without a copy. The S3 store (and the AWS SDK under it) is loaded only for a bucket.
 */
export async function createUploadStore(config: Pick<Config, 'dataDir' | 's3'>): Promise<FileStore | S3Store> {
  const { s3 } = config;
  if (s3?.bucket) {
    const { S3Store } = await import('@tus/s3-store');
    return new S3Store({
      partSize: 8 * 1024 * 1024,
      s3ClientConfig: {
        bucket: s3.bucket,
        region: s3.region,
        endpoint: s3.endpoint,
        forcePathStyle: Boolean(s3.endpoint),
        // S3-compatible services (MinIO releases before 2025, s3rver, ...) store the framing of
        // the SDK's default aws-chunked bodies with trailing checksums as part of the object;
        // send checksums only where the call requires one, as before SDK 3.729.
        ...(s3.endpoint && {
          requestChecksumCalculation: 'WHEN_REQUIRED' as const,
          responseChecksumValidation: 'WHEN_REQUIRED' as const,
        }),
        credentials:
          s3.accessKeyId && s3.secretAccessKey
            ? { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }
            : undefined,
      },
    });
  }
  const directory = path.join(config.dataDir, 'files');
  // tus writes its files with no mode: the process's umask makes them owner-only (lib/owner-only-umask.ts).
  mkdirSync(path.join(directory, uploadsFolder), { recursive: true, mode: ownerOnlyFolder });
  return new LocalUploadStore({ directory });
}
