import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, access, constants } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ownerOnlyFile, ownerOnlyFolder } from '../lib/owner-only.ts';
import { DeletionHold } from './deletion-hold.ts';
import type { ByteRange, Storage, StoredObject } from './storage.ts';

const safeKey = /^[a-z0-9][a-z0-9/_.-]*$/i;

/** Files in a folder; each write goes to a temporary name and is renamed when complete. */
export class LocalStorage implements Storage {
  private readonly root: string;
  private readonly deletions = new DeletionHold();

  constructor(root: string) {
    this.root = root;
  }

  private pathOf(key: string): string {
    if (!safeKey.test(key) || key.includes('..')) throw new Error(`Unsafe storage key: ${key}`);
    return path.join(this.root, key);
  }

  async put(key: string, body: Readable | Buffer): Promise<StoredObject> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true, mode: ownerOnlyFolder });
    const temporary = `${target}.${randomBytes(6).toString('hex')}.partial`;
    try {
      await pipeline(
        Buffer.isBuffer(body) ? Readable.from([body]) : body,
        // 1 MiB buffers: scans are hundreds of MB, and 16 KiB writes starve the upload.
        createWriteStream(temporary, { flags: 'wx', mode: ownerOnlyFile, highWaterMark: 1024 * 1024 }),
      );
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return { size: (await stat(target)).size };
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    return createReadStream(this.pathOf(key), range ? { start: range.start, end: range.end } : undefined);
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size } : null;
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key);
    await this.deletions.delete(key, () => rm(file, { force: true }));
  }

  holdDeletions(): () => Promise<void> {
    return this.deletions.hold();
  }

  async *list(prefix: string): AsyncIterable<{ key: string; lastModified: Date }> {
    const trimmed = prefix.replace(/\/+$/, '');
    const base = trimmed ? this.pathOf(trimmed) : this.root;
    let entries;
    try {
      entries = await readdir(base, { recursive: true, withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const full = path.join(entry.parentPath, entry.name);
      yield { key: path.relative(this.root, full).split(path.sep).join('/'), lastModified: (await stat(full)).mtime };
    }
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true, mode: ownerOnlyFolder });
    await access(this.root, constants.W_OK);
  }
}
