import { CreateMultipartUploadCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepLeftovers } from '../src/services/housekeeping.ts';
import { S3Storage } from '../src/storage/s3-storage.ts';
import { silentLogger } from './helpers/constants.ts';
import { s3rverCredentials, startS3rver } from './helpers/s3rver.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * A process killed mid-upload to S3 leaves a multipart upload whose parts S3 keeps (and bills)
 * until aborted; ListObjectsV2, which the file sweep reads, never shows them. s3rver, the
 * suite's S3, answers ListMultipartUploads with 501 NotImplemented, so the listing and abort
 * are proven against a stand-in that speaks S3's wire format for just those two calls (the
 * real SDK signs, sends and parses them), and s3rver proves the sweep survives a store that
 * cannot list them.
 */
const bucket = 'multipart-sweep';
const hour = 3600 * 1000;

interface PendingUpload {
  key: string;
  uploadId: string;
  initiated: Date;
}

const xml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** ListMultipartUploads (with prefix, max-uploads and key/upload-id markers), AbortMultipartUpload and an empty ListObjectsV2. */
async function startMultipartStandIn(pending: PendingUpload[]) {
  const aborted: string[] = [];
  const listings: string[] = [];
  const server = http.createServer((request, response) => {
    const url = new URL(request.url!, 'http://stand-in');
    const [, bucketName, ...keyParts] = url.pathname.split('/');
    const key = decodeURIComponent(keyParts.join('/'));
    response.setHeader('content-type', 'application/xml');
    if (request.method === 'GET' && url.searchParams.has('uploads')) {
      const prefix = url.searchParams.get('prefix') ?? '';
      const maxUploads = Number(url.searchParams.get('max-uploads') ?? 1000);
      const keyMarker = url.searchParams.get('key-marker') ?? '';
      const idMarker = url.searchParams.get('upload-id-marker') ?? '';
      listings.push(prefix);
      const matching = pending
        .filter((upload) => upload.key.startsWith(prefix))
        .sort((a, b) => a.key.localeCompare(b.key) || a.uploadId.localeCompare(b.uploadId))
        .filter((upload) => upload.key > keyMarker || (upload.key === keyMarker && upload.uploadId > idMarker));
      const page = matching.slice(0, maxUploads);
      const isTruncated = matching.length > page.length;
      const last = page.at(-1);
      response.end(
        `<?xml version="1.0" encoding="UTF-8"?><ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">` +
          `<Bucket>${bucketName}</Bucket><Prefix>${xml(prefix)}</Prefix><MaxUploads>${maxUploads}</MaxUploads>` +
          `<IsTruncated>${isTruncated}</IsTruncated>` +
          (isTruncated && last
            ? `<NextKeyMarker>${xml(last.key)}</NextKeyMarker><NextUploadIdMarker>${last.uploadId}</NextUploadIdMarker>`
            : '') +
          page
            .map(
              (upload) =>
                `<Upload><Key>${xml(upload.key)}</Key><UploadId>${upload.uploadId}</UploadId>` +
                `<Initiated>${upload.initiated.toISOString()}</Initiated><StorageClass>STANDARD</StorageClass></Upload>`,
            )
            .join('') +
          `</ListMultipartUploadsResult>`,
      );
      return;
    }
    if (request.method === 'DELETE' && url.searchParams.has('uploadId')) {
      const uploadId = url.searchParams.get('uploadId')!;
      const index = pending.findIndex((upload) => upload.key === key && upload.uploadId === uploadId);
      if (index === -1) {
        response.statusCode = 404;
        response.end('<Error><Code>NoSuchUpload</Code><Message>no such upload</Message></Error>');
        return;
      }
      pending.splice(index, 1);
      aborted.push(key);
      response.statusCode = 204;
      response.end();
      return;
    }
    if (request.method === 'GET' && url.searchParams.get('list-type') === '2') {
      response.end(
        `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">` +
          `<Name>${bucketName}</Name><Prefix>${xml(url.searchParams.get('prefix') ?? '')}</Prefix><KeyCount>0</KeyCount>` +
          `<MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated></ListBucketResult>`,
      );
      return;
    }
    response.statusCode = 501;
    response.end('<Error><Code>NotImplemented</Code><Message>not in the stand-in</Message></Error>');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    aborted,
    listings,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const upload = (key: string, ageMs: number): PendingUpload => ({
  key,
  uploadId: randomBytes(8).toString('hex'),
  initiated: new Date(Date.now() - ageMs),
});

describe('the sweep aborts the multipart uploads killed processes left in S3', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('aborts stale unfinished uploads under the prefix across pages, and keeps recent ones and other prefixes', async () => {
    const folder = `cases/${randomUUID()}`;
    const stale = [upload(`${folder}/a`, 2 * hour), upload(`${folder}/b`, 3 * hour), upload(`${folder}/b`, 5 * hour)];
    const recent = upload(`${folder}/c`, 60_000);
    const elsewhere = [upload('casesx/not-a-case-folder', 5 * hour), upload('users/1/avatar', 5 * hour)];
    const pending = [...stale, recent, ...elsewhere];
    const standIn = await startMultipartStandIn(pending);
    // Two uploads a page: the markers must be followed, also between two uploads of one key.
    const storage = new S3Storage({
      bucket,
      endpoint: standIn.endpoint,
      region: 'us-east-1',
      listPageSize: 2,
      ...s3rverCredentials,
    });
    try {
      expect(await storage.abortUnfinishedWrites('cases', new Date(Date.now() - hour))).toBe(stale.length);
      expect(standIn.aborted.sort()).toEqual(stale.map((entry) => entry.key).sort());
      expect(pending).toEqual([recent, ...elsewhere]);
      expect(new Set(standIn.listings)).toEqual(new Set(['cases/']));
    } finally {
      storage.close();
      await standIn.stop();
    }
  });

  it('sweeps case, message and plan folders past ORPHAN_FILE_GRACE, and resumable uploads only past their 24 hours', async () => {
    const stale = ['cases', 'messages', 'plans'].map((folder) => upload(`${folder}/${randomUUID()}/x`, 2 * hour));
    const resumable = upload(`uploads/${randomUUID()}`, 2 * hour);
    const expiredResumable = upload(`uploads/${randomUUID()}`, 25 * hour);
    const pending = [...stale, resumable, expiredResumable];
    const standIn = await startMultipartStandIn(pending);
    const storage = new S3Storage({ bucket, endpoint: standIn.endpoint, region: 'us-east-1', ...s3rverCredentials });
    try {
      const counts = await sweepLeftovers(
        { database: t.app.database, storage, log: silentLogger },
        { graceSeconds: 3600 },
      );
      expect(counts).toEqual({ caseFiles: 0, planFiles: 0, progressFiles: 0, expiredUploads: 0, unfinishedWrites: 4, deadSessions: 0 });
      expect(pending).toEqual([resumable]);
    } finally {
      storage.close();
      await standIn.stop();
    }
  });

  it('on s3rver (no ListMultipartUploads): the sweep still removes orphaned files and reports the multipart part as failed', async () => {
    const s3 = await startS3rver(bucket);
    const storage = new S3Storage({ bucket, endpoint: s3.endpoint, region: 'us-east-1', ...s3rverCredentials });
    try {
      // A killed upload's two halves: a finished orphan object, and a multipart upload with one part.
      const orphan = `cases/${randomUUID()}/${randomBytes(12).toString('hex')}`;
      await storage.put(orphan, randomBytes(100), 'application/octet-stream');
      const partial = `cases/${randomUUID()}/partial`;
      const { UploadId } = await storage.client.send(
        new CreateMultipartUploadCommand({ Bucket: bucket, Key: partial }),
      );
      await storage.client.send(
        new UploadPartCommand({ Bucket: bucket, Key: partial, UploadId, PartNumber: 1, Body: randomBytes(1024) }),
      );
      await expect(storage.abortUnfinishedWrites('cases', new Date())).rejects.toThrow(/implemented/i);

      const counts = await sweepLeftovers(
        { database: t.app.database, storage, log: silentLogger },
        { graceSeconds: 0 },
      );
      expect(counts).toMatchObject({ caseFiles: 1, unfinishedWrites: null });
      expect(await storage.stat(orphan)).toBeNull();
    } finally {
      storage.close();
      await s3.stop();
    }
  });
});
