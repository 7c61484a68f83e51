import path from 'node:path';
import type { Config } from '../config.ts';
import { LocalStorage } from './local-storage.ts';
import type { Storage } from './storage.ts';

/**
 * The S3 bucket when S3_BUCKET is set, else files in DATA_DIR/files. The AWS SDK is loaded
 * only for a bucket: a server on local storage does not carry it.
 */
export async function createStorage(config: { dataDir: string; s3?: Config['s3'] }): Promise<Storage> {
  if (config.s3?.bucket) {
    const { S3Storage } = await import('./s3-storage.ts');
    return new S3Storage(config.s3);
  }
  return new LocalStorage(path.join(config.dataDir, 'files'));
}
