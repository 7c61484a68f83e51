import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { DeletionHold } from './deletion-hold.ts';
import type { ByteRange, Storage, StoredObject } from './storage.ts';

export interface S3StorageOptions {
  bucket: string;
  /** An S3-compatible service (MinIO, s3rver, ...); addressed path-style (`endpoint/bucket/key`). */
  endpoint?: string;
  region: string;
  /** Without both, the SDK's default credential chain (environment, profile, instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Keys per ListObjectsV2 page (S3's maximum is 1000); smaller in tests to exercise paging. */
  listPageSize?: number;
}

/** Multipart part size and parts in flight: memory stays near partSize * (queueSize + 1), whatever the file size. */
const partSize = 8 * 1024 * 1024;
const queueSize = 4;
/** A readiness probe answers within this, rather than waiting out the SDK's retries on a dead endpoint. */
const checkTimeoutMs = 5000;

function isNotFound(error: unknown): boolean {
  if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return true;
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'NotFound' || name === 'NoSuchKey';
}

/** Objects in an S3 bucket (AWS or any S3-compatible service), selected when S3_BUCKET is set. */
export class S3Storage implements Storage {
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly listPageSize: number;
  private readonly deletions = new DeletionHold();

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.listPageSize = options.listPageSize ?? 1000;
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      // S3-compatible services rarely have wildcard DNS for `bucket.host` names.
      forcePathStyle: Boolean(options.endpoint),
      credentials:
        options.accessKeyId && options.secretAccessKey
          ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
          : undefined,
    });
  }

  /** Streams the body in 8 MiB parts; on any failure the multipart upload is aborted and the error rethrown. */
  async put(key: string, body: Readable | Buffer, contentType: string): Promise<StoredObject> {
    if (Buffer.isBuffer(body)) {
      await new Upload({
        client: this.client,
        params: { Bucket: this.bucket, Key: key, Body: body, ContentType: contentType },
        partSize,
        queueSize,
      }).done();
      return { size: body.length };
    }

    let size = 0;
    // Only the source's own error: a premature close caused by stopping it after an S3
    // failure must not hide that failure.
    let sourceError: unknown;
    body.once('error', (error) => {
      sourceError ??= error;
    });
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        callback(null, chunk);
      },
    });
    // pipeline destroys the source when the upload stops reading (failure) and the counter
    // when the source fails, so the Upload sees the error instead of waiting for more bytes.
    const piping = pipeline(body, counter).catch(() => {
      // Reported through the upload's failure (and sourceError) below.
    });
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: counter, ContentType: contentType },
      partSize,
      queueSize,
      // lib-storage sends AbortMultipartUpload itself when a part, the source or the
      // completion fails, so no parts are left behind (leavePartsOnError stays false).
    });
    try {
      await upload.done();
    } catch (error) {
      counter.destroy();
      await piping;
      // The source's error says what went wrong; an abort that also failed is secondary.
      if (sourceError !== undefined && sourceError !== error) {
        if (sourceError instanceof Error && sourceError.cause === undefined) sourceError.cause = error;
        throw sourceError;
      }
      throw error;
    }
    await piping;
    return { size };
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const answer = await this.client.send(
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      }),
    );
    const body = answer.Body;
    if (!body) throw new Error(`S3 returned no body for ${key}`);
    if (body instanceof Readable) return body;
    // Only outside Node does the SDK answer with a web stream; convert rather than assume.
    return Readable.fromWeb(body.transformToWebStream() as WebReadableStream);
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: answer.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.deletions.delete(key, async () => {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    });
  }

  holdDeletions(): () => Promise<void> {
    return this.deletions.hold();
  }

  /** Like LocalStorage, a prefix names a folder: `users/1` lists `users/1/...`, not `users/10/...`. */
  async *list(prefix: string): AsyncIterable<{ key: string; lastModified: Date }> {
    const trimmed = prefix.replace(/\/+$/, '');
    let continuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: trimmed ? `${trimmed}/` : undefined,
          MaxKeys: this.listPageSize,
          ContinuationToken: continuationToken,
        }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key === undefined) continue;
        yield { key: object.Key, lastModified: object.LastModified ?? new Date(0) };
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
  }

  /**
   * Aborts the multipart uploads under `prefix` initiated before `startedBefore`: the parts
   * of a process killed mid-upload, which `list` (finished objects only) never shows and S3
   * keeps, and bills, until aborted. Follows ListMultipartUploads' key and upload-id markers.
   */
  async abortUnfinishedWrites(prefix: string, startedBefore: Date): Promise<number> {
    const trimmed = prefix.replace(/\/+$/, '');
    let aborted = 0;
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    do {
      const page = await this.client.send(
        new ListMultipartUploadsCommand({
          Bucket: this.bucket,
          Prefix: trimmed ? `${trimmed}/` : undefined,
          MaxUploads: this.listPageSize,
          KeyMarker: keyMarker,
          UploadIdMarker: uploadIdMarker,
        }),
      );
      for (const upload of page.Uploads ?? []) {
        if (upload.Key === undefined || upload.UploadId === undefined) continue;
        // An upload with no start time is left alone: it may be one still running.
        if (!upload.Initiated || upload.Initiated.getTime() >= startedBefore.getTime()) continue;
        await this.client.send(
          new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: upload.Key, UploadId: upload.UploadId }),
        );
        aborted++;
      }
      const isTruncated = page.IsTruncated === true;
      keyMarker = isTruncated ? page.NextKeyMarker : undefined;
      uploadIdMarker = isTruncated ? page.NextUploadIdMarker : undefined;
    } while (keyMarker !== undefined);
    return aborted;
  }

  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), {
      abortSignal: AbortSignal.timeout(checkTimeoutMs),
    });
  }

  /** Closes the client's kept-alive connections. */
  close(): void {
    this.client.destroy();
  }
}
