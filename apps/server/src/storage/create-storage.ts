import path from 'node:path';
import type { Config } from '../config.ts';
import { LocalStorage } from './local-storage.ts';
import { S3Storage } from './s3-storage.ts';
import type { Storage } from './storage.ts';

/** The S3 bucket when S3_BUCKET is set, else files in DATA_DIR/files. */
export function createStorage(config: Pick<Config, 'dataDir' | 's3'>): Storage {
  if (config.s3?.bucket) return new S3Storage(config.s3);
  return new LocalStorage(path.join(config.dataDir, 'files'));
}
