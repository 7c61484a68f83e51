import { endpoints } from '@portal/contract';
import { Server, type ServerOptions } from '@tus/server';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { finished, Transform, type Readable } from 'node:stream';
import { NodeRequest, sendNodeResponse } from 'srvx/node';
import type { SignedInUser } from '../../auth/policy.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { FileInspector } from '../../services/cases/file-checks.ts';
import { createUploadStore, newTusId, uploadIdOfTusId, uploadStorageKey } from '../../services/uploads/upload-store.ts';
import { findOwnOpenUpload, finishUpload, forgetUpload, recordUpload } from '../../services/uploads/uploads.ts';

const tusPath = '/api/uploads/tus';

/**
 * The tus routes (docs/decisions/uploads.md § Resumable uploads). They speak tus 1.0.0, not JSON, so
 * they have no row in the endpoint table; the endpoint table, OpenAPI and matrix tests name
 * them as their one exception.
 */
export const tusRoutes: readonly string[] = [
  `OPTIONS ${tusPath}`,
  `POST ${tusPath}`,
  `HEAD ${tusPath}/:uploadId`,
  `PATCH ${tusPath}/:uploadId`,
  `DELETE ${tusPath}/:uploadId`,
];

/**
 * A request's body as a web stream of its own buffers, for tus: as Readable.toWeb() (reads
 * paused while 1 MiB waits, ends or fails with the request, a cancel destroys it) without
 * copying each chunk, which it does in case a Buffer shares a pool that a reader could detach.
 */
function bodyStream(raw: IncomingMessage): ReadableStream<Uint8Array> | null {
  if (raw.method === 'HEAD' || raw.method === 'GET') return null;
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        raw.pause();
        raw.on('data', (chunk: Buffer) => {
          controller.enqueue(chunk);
          if ((controller.desiredSize ?? 0) <= 0) raw.pause();
        });
        finished(raw, { writable: false }, (error) => {
          if (cancelled) return;
          cancelled = true;
          if (error) controller.error(error);
          else controller.close();
        });
      },
      pull() {
        raw.resume();
      },
      cancel(reason) {
        cancelled = true;
        raw.destroy(reason);
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 1024 * 1024 }),
  );
}

const uploadIdPattern = /^[0-9a-f]{32}$/;

/** Uploads hashed as they arrive at once, at most (about 1 KB each); beyond, the finish reads the bytes back. */
const maxHashedUploads = 10_000;

type TusRequest = Parameters<NonNullable<ServerOptions['onUploadCreate']>>[0];

/** Who signed in for each raw request handed to tus, for its hooks. */
const callers = new WeakMap<IncomingMessage, SignedInUser>();

function callerOf(request: TusRequest): SignedInUser {
  const raw = (request as { node?: { req: IncomingMessage } }).node?.req;
  const user = raw && callers.get(raw);
  if (!user) throw { status_code: 401, body: 'Please sign in.\n' };
  return user;
}

/**
 * What a failed tus request answers. tus would send an unknown error's message, a failed
 * query's SQL among them: the portal's own errors keep their status and message, tus's own
 * (`{ status_code, body }`) their plain text, and anything else is a logged 500 that says
 * nothing of its cause.
 */
function tusErrorAnswer(log: FastifyBaseLogger, error: Error | { status_code: number; body: string }) {
  if (error instanceof AppError) return { status_code: error.status, body: `${error.message}\n` };
  if (!(error instanceof Error)) return undefined;
  log.error({ err: error }, 'tus request failed');
  return { status_code: 500, body: 'Something went wrong. Please try again.\n' };
}

/**
 * Mounts @tus/server at /api/uploads/tus. The portal's own auth runs first (bearer token; the
 * cookie is not enough for a change), the `uploads` table says whose upload is whose (another
 * user's id answers 404 as a missing one does), and the declared size is held to
 * MAX_UPLOAD_BYTES.
 */
export async function tusRoutesPlugin(app: FastifyInstance) {
  const { maxUploadBytes } = app.config;
  const allowance = { uploads: app.config.uploadsPerUser, bytes: app.config.uploadBytesPerUser };
  const deps = { db: app.db, storage: app.storage };
  const datastore = await createUploadStore(app.config);
  // A cancelled upload's row goes with its bytes, inside tus's DELETE and before its 204 is
  // written: a client that reads the answer never finds the row still there.
  const removeBytes = datastore.remove.bind(datastore);
  datastore.remove = async (tusId: string) => {
    arriving.delete(tusId);
    await removeBytes(tusId);
    // S3Store's remove leaves the incomplete part object (`<id>.part`) of an unfinished upload.
    await app.storage.delete(`${tusId}.part`);
    await forgetUpload(app.db, uploadIdOfTusId(tusId));
  };
  // SHA-256 and the head as the bytes arrive, so a finished upload is not read a second time.
  // Kept only while every byte so far went through this process in order; a PATCH that
  // wrote other than it read (cut short, another process, a restart) drops it, and the
  // finish reads the bytes back as before.
  const arriving = new Map<string, FileInspector>();
  const writeBytes = datastore.write.bind(datastore);
  datastore.write = async (readable: Readable, uploadId: string, offset: number) => {
    const inspector = offset === 0 ? new FileInspector(() => {}) : arriving.get(uploadId);
    arriving.delete(uploadId);
    if (!inspector || inspector.bytes !== offset || arriving.size >= maxHashedUploads) {
      return writeBytes(readable, uploadId, offset);
    }
    const tap = new Transform({
      // As the store's own write: a few socket reads buffered, not one 16 KiB write at a time.
      highWaterMark: 1024 * 1024,
      transform(chunk: Buffer, _encoding, callback) {
        inspector.account(chunk);
        callback(null, chunk);
      },
    });
    readable.once('error', (error) => tap.destroy(error));
    const written = await writeBytes(readable.pipe(tap), uploadId, offset);
    if (inspector.bytes === written) arriving.set(uploadId, inspector);
    return written;
  };
  const tus = new Server({
    path: tusPath,
    datastore,
    relativeLocation: true,
    maxSize: maxUploadBytes,
    disableTerminationForFinishedUploads: false,
    // tus's id is the storage key (`uploads/<id>`); the URL carries the bare id.
    namingFunction: () => newTusId(),
    generateUrl: (_request, { path, id }) => `${path}/${uploadIdOfTusId(id)}`,
    getFileIdFromRequest: (_request, lastPath) => (lastPath ? uploadStorageKey(lastPath) : undefined),
    async onUploadCreate(request, upload) {
      const user = callerOf(request);
      const fileName = upload.metadata?.filename;
      if (!fileName) throw { status_code: 400, body: 'Upload-Metadata must name the file (filename)\n' };
      await recordUpload(
        app.db,
        { uploadId: uploadIdOfTusId(upload.id), userId: user.userId, fileName, declaredSize: upload.size! },
        allowance,
      );
      return {};
    },
    async onUploadFinish(_request, upload) {
      const inspector = arriving.get(upload.id);
      arriving.delete(upload.id);
      await finishUpload(deps, uploadIdOfTusId(upload.id), inspector);
      return {};
    },
    onResponseError: (_request, error) => tusErrorAnswer(app.log, error),
  });

  // tus bodies are read by tus itself, from the raw request.
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));

  // As tus.handle(), but the body is read from the request without the copy of every chunk
  // that srvx's Readable.toWeb() makes (the request's own buffers are never reused).
  async function handOver(request: FastifyRequest, reply: FastifyReply) {
    if (request.user) callers.set(request.raw, request.user);
    reply.hijack();
    const webRequest = new NodeRequest({ req: request.raw, res: reply.raw });
    Object.defineProperty(webRequest, 'body', { value: bodyStream(request.raw) });
    const response = await tus.handleWeb(webRequest as unknown as Request);
    // tus opens CORS to every origin; here it stays closed, as on every other route.
    for (const name of [...response.headers.keys()]) {
      if (name.startsWith('access-control-')) response.headers.delete(name);
    }
    await sendNodeResponse(reply.raw, response);
  }

  const config = { access: endpoints.caseCreate.access, isStreamedUpload: true };

  // tus discovery (Tus-Version, Tus-Extension, Tus-Max-Size), as the protocol has it: the
  // same for anyone, and it tells nothing docs/configuration.md does not.
  app.options(tusPath, { config: { access: 'public' as const } }, handOver);

  app.post(tusPath, { config }, async (request, reply) => {
    const declared = request.headers['upload-length'];
    if (declared === undefined) throw badRequest('Upload-Length is required');
    if (typeof declared !== 'string' || !/^\d+$/.test(declared))
      throw badRequest('Upload-Length must be the file size in bytes');
    if (Number(declared) > maxUploadBytes) throw new AppError(413, 'The upload is larger than the server allows');
    await handOver(request, reply);
  });

  /** Answers 404 unless the upload is the signed-in user's own and still open. */
  const requireOwnUpload = async (request: FastifyRequest<{ Params: { uploadId: string } }>) => {
    const { uploadId } = request.params;
    // tus names uploads with 16 random bytes in hex; anything else is no upload (and never reaches SQL).
    const upload = uploadIdPattern.test(uploadId)
      ? await findOwnOpenUpload(app.db, request.user!.userId, uploadId)
      : undefined;
    if (!upload) throw notFound('Upload');
  };

  app.route<{ Params: { uploadId: string } }>({
    method: ['HEAD', 'PATCH', 'DELETE'],
    url: `${tusPath}/:uploadId`,
    config,
    async handler(request, reply) {
      await requireOwnUpload(request);
      await handOver(request, reply);
    },
  });
}
