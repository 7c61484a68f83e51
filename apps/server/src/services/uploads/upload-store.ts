import { FileStore } from '@tus/file-store';
import type { S3Store } from '@tus/s3-store';
import path from 'node:path';
import type { Config } from '../../config.ts';

/** The folder of the portal's storage that tus uploads are written to. */
export const uploadsFolder = 'uploads';

/** Where an upload's bytes are, as a key of the portal's own storage (`app.storage`). */
export const uploadStorageKey = (uploadId: string) => `${uploadsFolder}/${uploadId}`;

/**
 * The tus data store over the same place as the portal's storage: the S3 bucket when
 * S3_BUCKET is set, else DATA_DIR/files. Either way a finished upload's bytes are at
 * `uploadStorageKey(id)`, so a case's attachment can point at them without a copy. The S3
 * store (and the AWS SDK under it) is loaded only for a bucket.
 */
export async function createUploadStore(config: Pick<Config, 'dataDir' | 's3'>): Promise<FileStore | S3Store> {
  const { s3 } = config;
  if (s3?.bucket) {
    const { S3Store } = await import('@tus/s3-store');
    /** S3Store writes `<id>` and `<id>.info` at the bucket's root; this keeps them under `uploads/`. */
    class UploadsS3Store extends S3Store {
      protected override infoKey(id: string): string {
        return super.infoKey(uploadStorageKey(id));
      }

      protected override partKey(id: string, isIncomplete?: boolean): string {
        return super.partKey(uploadStorageKey(id), isIncomplete);
      }
    }
    return new UploadsS3Store({
      partSize: 8 * 1024 * 1024,
      s3ClientConfig: {
        bucket: s3.bucket,
        region: s3.region,
        endpoint: s3.endpoint,
        forcePathStyle: Boolean(s3.endpoint),
        credentials:
          s3.accessKeyId && s3.secretAccessKey
            ? { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }
            : undefined,
      },
    });
  }
  return new FileStore({ directory: path.join(config.dataDir, 'files', uploadsFolder) });
}
