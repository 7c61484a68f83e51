import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage } from '../src/storage/create-storage.ts';
import { LocalStorage } from '../src/storage/local-storage.ts';
import { S3Storage } from '../src/storage/s3-storage.ts';
import type { Storage } from '../src/storage/storage.ts';
import { allRows, formData, makeImage, uniqueName } from './helpers/factories.ts';
import { s3rverCredentials, startS3rver } from './helpers/s3rver.ts';
import { createTestApp } from './helpers/test-app.ts';

const bucket = 'test-bucket';
const MiB = 1024 * 1024;

function s3StorageAt(endpoint: string, options: { listPageSize?: number } = {}): S3Storage {
  return new S3Storage({
    bucket,
    endpoint,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    ...options,
  });
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

async function keysUnder(storage: Storage, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const entry of storage.list(prefix)) keys.push(entry.key);
  return keys.sort();
}

/** A real stream (not a Buffer) over `data`, in 64 KiB chunks. */
function streamOf(data: Buffer): Readable {
  return Readable.from(
    (function* () {
      for (let offset = 0; offset < data.length; offset += 64 * 1024) yield data.subarray(offset, offset + 64 * 1024);
    })(),
  );
}

interface Driver {
  storage: Storage;
  teardown(): Promise<void>;
}

let s3: { endpoint: string; stop(): Promise<void> };
beforeAll(async () => {
  s3 = await startS3rver(bucket);
});
afterAll(() => s3?.stop());

const drivers: { name: string; create(): Promise<Driver> }[] = [
  {
    name: 'LocalStorage',
    async create() {
      const folder = await mkdtemp(path.join(os.tmpdir(), 'storage-test-'));
      return { storage: new LocalStorage(folder), teardown: () => rm(folder, { recursive: true, force: true }) };
    },
  },
  {
    name: 'S3Storage',
    async create() {
      // A small page size so list() has to follow continuation tokens.
      const storage = s3StorageAt(s3.endpoint, { listPageSize: 2 });
      return { storage, teardown: async () => storage.close() };
    },
  },
];

describe.each(drivers)('$name', (driver) => {
  let storage: Storage;
  let teardown: () => Promise<void>;
  /** Every test writes under its own prefix, so the drivers' shared state never collides. */
  let run: string;
  beforeAll(async () => {
    ({ storage, teardown } = await driver.create());
    run = uniqueName('run');
  });
  afterAll(() => teardown?.());

  it('round-trips a Buffer and reports its size', async () => {
    const data = randomBytes(1000);
    expect(await storage.put(`${run}/small.bin`, data, 'application/octet-stream')).toEqual({ size: 1000 });
    expect(await readAll(await storage.read(`${run}/small.bin`))).toEqual(data);
    expect(await storage.stat(`${run}/small.bin`)).toEqual({ size: 1000 });
  });

  it('round-trips a 20 MB stream (multipart on S3) and reads ranges across part boundaries', async () => {
    const data = randomBytes(20 * 1000 * 1000);
    const stored = await storage.put(`${run}/big.bin`, streamOf(data), 'application/octet-stream');
    expect(stored).toEqual({ size: data.length });
    expect(await storage.stat(`${run}/big.bin`)).toEqual({ size: data.length });
    expect(sha256(await readAll(await storage.read(`${run}/big.bin`)))).toBe(sha256(data));
    for (const range of [
      { start: 0, end: 9 },
      { start: 8 * MiB - 5, end: 8 * MiB + 4 },
      { start: data.length - 100, end: data.length - 1 },
    ]) {
      const bytes = await readAll(await storage.read(`${run}/big.bin`, range));
      expect(bytes.length).toBe(range.end - range.start + 1);
      expect(bytes.equals(data.subarray(range.start, range.end + 1))).toBe(true);
    }
  });

  it('reads exactly the bytes of an inclusive range', async () => {
    const data = Buffer.from('0123456789abcdefghij');
    await storage.put(`${run}/range.txt`, data, 'text/plain');
    expect((await readAll(await storage.read(`${run}/range.txt`, { start: 10, end: 14 }))).toString()).toBe('abcde');
    expect((await readAll(await storage.read(`${run}/range.txt`, { start: 19, end: 19 }))).toString()).toBe('j');
  });

  it('stats a missing key as null', async () => {
    expect(await storage.stat(`${run}/missing.bin`)).toBeNull();
  });

  it('deletes an object, and deleting a missing one is not an error', async () => {
    await storage.put(`${run}/gone.bin`, Buffer.from('x'), 'application/octet-stream');
    await storage.delete(`${run}/gone.bin`);
    expect(await storage.stat(`${run}/gone.bin`)).toBeNull();
    await expect(storage.delete(`${run}/gone.bin`)).resolves.toBeUndefined();
  });

  it('lists every key under a folder prefix, through several pages', async () => {
    const keys = ['a.bin', 'b.bin', 'c.bin', 'sub/d.bin', 'sub/e.bin'].map((name) => `${run}/list/1/${name}`);
    for (const key of keys) await storage.put(key, Buffer.from(key), 'application/octet-stream');
    await storage.put(`${run}/list/10/other.bin`, Buffer.from('other'), 'application/octet-stream');
    const before = Date.now();
    const entries: { key: string; lastModified: Date }[] = [];
    for await (const entry of storage.list(`${run}/list/1`)) entries.push(entry);
    expect(entries.map((entry) => entry.key).sort()).toEqual(keys);
    for (const entry of entries) {
      expect(entry.lastModified).toBeInstanceOf(Date);
      expect(Math.abs(entry.lastModified.getTime() - before)).toBeLessThan(60_000);
    }
    expect(await keysUnder(storage, `${run}/list/1/`)).toEqual(keys);
    expect(await keysUnder(storage, `${run}/list/nothing-here`)).toEqual([]);
  });

  it('leaves nothing behind when the source stream fails after more than one part', async () => {
    const key = `${run}/failed/upload.bin`;
    const failing = Readable.from(
      (async function* () {
        for (let i = 0; i < 10; i++) yield randomBytes(MiB);
        throw new Error('source failed midway');
      })(),
    );
    await expect(storage.put(key, failing, 'application/octet-stream')).rejects.toThrow('source failed midway');
    expect(await storage.stat(key)).toBeNull();
    expect(await keysUnder(storage, `${run}/failed`)).toEqual([]);
  });

  it('leaves nothing behind when the source is destroyed (client went away)', async () => {
    const key = `${run}/aborted/upload.bin`;
    const source = new PassThrough();
    const writing = storage.put(key, source, 'application/octet-stream');
    for (let i = 0; i < 9; i++) {
      if (!source.write(randomBytes(MiB))) await new Promise((resolve) => source.once('drain', resolve));
    }
    source.destroy();
    await expect(writing).rejects.toThrow();
    expect(await storage.stat(key)).toBeNull();
    expect(await keysUnder(storage, `${run}/aborted`)).toEqual([]);
  });

  it('passes check()', async () => {
    await expect(storage.check()).resolves.toBeUndefined();
  });
});

describe('S3Storage specifics', () => {
  it('sends AbortMultipartUpload for the started upload when the source fails', async () => {
    const storage = s3StorageAt(s3.endpoint);
    const sent: string[] = [];
    storage.client.middlewareStack.add(
      (next, context) => async (args) => {
        sent.push(context.commandName ?? '?');
        return next(args);
      },
      { step: 'initialize' },
    );
    const failing = Readable.from(
      (async function* () {
        for (let i = 0; i < 9; i++) yield randomBytes(MiB);
        throw new Error('source failed');
      })(),
    );
    await expect(storage.put(uniqueName('abort/'), failing, 'application/octet-stream')).rejects.toThrow(
      'source failed',
    );
    expect(sent).toContain('CreateMultipartUploadCommand');
    expect(sent).toContain('AbortMultipartUploadCommand');
    expect(sent).not.toContain('CompleteMultipartUploadCommand');
    storage.close();
  });

  it('reports the S3 failure (not a premature close) and stops reading the source', async () => {
    const storage = new S3Storage({
      bucket: 'no-such-bucket',
      endpoint: s3.endpoint,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    });
    const source = streamOf(randomBytes(20 * MiB));
    await expect(storage.put('x/y.bin', source, 'application/octet-stream')).rejects.toMatchObject({
      name: 'NoSuchBucket',
    });
    expect(source.destroyed).toBe(true);
    storage.close();
  });

  it('check() fails once the server is gone', async () => {
    const server = await startS3rver(bucket);
    const storage = s3StorageAt(server.endpoint);
    try {
      await expect(storage.check()).resolves.toBeUndefined();
      await server.stop();
      await expect(storage.check()).rejects.toThrow();
    } finally {
      storage.close();
      await server.stop();
    }
  });

  it('check() fails for a bucket that does not exist', async () => {
    const storage = new S3Storage({
      bucket: 'no-such-bucket',
      endpoint: s3.endpoint,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    });
    await expect(storage.check()).rejects.toThrow();
    storage.close();
  });

  it('createStorage picks S3 when a bucket is configured, else the data folder', async () => {
    const s3Storage = await createStorage({
      dataDir: '/tmp/x',
      s3: { bucket, endpoint: s3.endpoint, region: 'us-east-1' },
    });
    expect(s3Storage).toBeInstanceOf(S3Storage);
    (s3Storage as S3Storage).close();
    expect(await createStorage({ dataDir: '/tmp/x' })).toBeInstanceOf(LocalStorage);
  });
});

describe('the app on S3 storage', () => {
  it('stores a profile picture in the bucket and serves it back from there', async () => {
    const storage = s3StorageAt(s3.endpoint);
    // The same bucket in the configuration, as in production: the resumable uploads' store follows it.
    const s3Config = { bucket, endpoint: s3.endpoint, region: 'us-east-1', ...s3rverCredentials };
    const t = await createTestApp({ storage, s3: s3Config });
    try {
      const admin = await t.adminToken();
      const role = await t.as(admin, {
        method: 'POST',
        url: '/api/role/add',
        payload: { roleName: uniqueName('role'), description: 'test' },
      });
      expect(role.statusCode).toBe(200);
      const username = uniqueName('pic');
      const added = await t.as(admin, {
        method: 'POST',
        url: '/api/user/add',
        payload: formData(
          {
            username,
            firstname: 'Pia',
            lastname: 'Picture',
            password: 'picture-pass',
            email: `${username}@lab.test`,
            mobileNo: '5550102',
            roleId: role.json<{ RoleId: number }>().RoleId,
            userType: 'Web',
          },
          { profilePic: { data: await makeImage('png'), name: 'me.png', type: 'image/png' } },
        ),
      });
      expect(added.statusCode, added.body).toBe(200);
      const userId = added.json<{ UserId: number }>().UserId;

      const list = await allRows<{ UserId: number; ProfilePic: string | null }>(t, admin, '/api/user/get_users_list');
      const profilePic = list.find((user) => user.UserId === userId)?.ProfilePic;
      expect(profilePic).toMatch(new RegExp(`^/api/uploads/users/${userId}/[a-f0-9]{16}\\.png$`));

      const keys = await keysUnder(storage, `users/${userId}`);
      expect(keys).toHaveLength(3); // the picture and its 32x32 and 90x90 avatars
      const stored = await readAll(await storage.read(`users/${userId}/${path.basename(profilePic!)}`));

      const served = await t.as(admin, { method: 'GET', url: profilePic! });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.rawPayload.equals(stored)).toBe(true);
      expect(Number(served.headers['content-length'])).toBe(stored.length);
      const metadata = await sharp(served.rawPayload).metadata();
      expect(metadata).toMatchObject({ format: 'png', width: 120, height: 120 });

      // Nothing went to the local data folder.
      expect(await readdir(path.join(t.dataDir, 'files')).catch(() => [])).toEqual([]);
    } finally {
      await t.close();
      storage.close();
    }
  });
});
