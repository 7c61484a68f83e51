import { buffer } from 'node:stream/consumers';
import { AppError } from '../../lib/errors.ts';
import type { Storage } from '../../storage/storage.ts';
import type { CaseFileDownload } from './case-files.ts';
import { contentTypeOf } from './file-checks.ts';

/**
 * Thumbnails of a case's photos (docs/decisions/uploads.md § Photo thumbnails and the gallery): made
 * from the stored JPEG or PNG on first request and kept in storage beside no original, so
 * every later view reads a few KB. Attachments are never deleted, so neither are these.
 */

/** Sharp at 160 CSS px on a 2x screen. */
export const thumbnailLongSide = 320;
/** Sharp's own default, which the upload's decode check used: every photo stored has a thumbnail. */
const maxSourcePixels = 0x3fff * 0x3fff;
/** Thumbnails made at once by a process, each holding its original in memory while it decodes. */
const thumbnailsAtOnce = 2;

const photoTypes = new Set([contentTypeOf.jpeg, contentTypeOf.png]);

export const thumbnailKeyOf = (sourceKey: string) => `thumbnails/${sourceKey}.webp`;

export interface StoredThumbnail {
  key: string;
  size: number;
}

/** The bytes of a thumbnail made now: upright (EXIF orientation applied), without metadata. */
async function encodeThumbnail(original: Buffer): Promise<Buffer> {
  const sharp = (await import('sharp')).default;
  return sharp(original, { limitInputPixels: maxSourcePixels, failOn: 'error' })
    .rotate()
    .resize(thumbnailLongSide, thumbnailLongSide, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 75 })
    .toBuffer();
}

/**
 * One process's thumbnail maker: at most `thumbnailsAtOnce` encodings run, the rest wait
 * their turn, and a photo asked for again while its thumbnail is being made waits for that one.
 */
export function createThumbnailMaker(storage: Storage) {
  const making = new Map<string, Promise<StoredThumbnail>>();
  const waiting: (() => void)[] = [];
  let running = 0;

  async function withSlot<T>(work: () => Promise<T>): Promise<T> {
    if (running >= thumbnailsAtOnce) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await work();
    } finally {
      running--;
      waiting.shift()?.();
    }
  }

  async function make(file: CaseFileDownload, key: string): Promise<StoredThumbnail> {
    const data = await withSlot(async () => {
      const original = await buffer(await file.open());
      return encodeThumbnail(original).catch(() => {
        throw new AppError(415, 'This photo could not be read for a thumbnail: download the original instead');
      });
    });
    await storage.put(key, data, 'image/webp');
    return { key, size: data.length };
  }

  return {
    /** The stored thumbnail of a case's photo, made now if it has none yet; 415 for a file that is no photo. */
    async thumbnailOf(file: CaseFileDownload): Promise<StoredThumbnail> {
      if (!photoTypes.has(file.contentType)) {
        throw new AppError(415, 'Only JPEG and PNG photos have thumbnails: download the file instead');
      }
      const key = thumbnailKeyOf(file.storageKey);
      const stored = await storage.stat(key);
      if (stored) return { key, size: stored.size };
      let pending = making.get(key);
      if (!pending) {
        pending = make(file, key).finally(() => making.delete(key));
        making.set(key, pending);
      }
      return pending;
    },
  };
}
