import type { FastifyReply, FastifyRequest } from 'fastify';
import { pipeline } from 'node:stream';
import { compressionThreshold, downloadEncoding } from '../../plugins/compression.ts';
import type { CaseFileDownload } from '../../services/cases/case-files.ts';
import { bidiControls, contentTypeOf } from '../../services/cases/file-checks.ts';
import type { ByteRange } from '../../storage/storage.ts';

const inlineTypes = new Set(['image/jpeg', 'image/png']);

/** `attachment; filename="..."; filename*=UTF-8''...`: an ASCII fallback and the exact name. */
export function contentDisposition(disposition: 'inline' | 'attachment', storedName: string): string {
  // Names stored before bidi controls were stripped on upload lose them here too.
  const fileName = storedName.replace(bidiControls, '') || 'file';
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * A single `bytes=` range of a file of `size` bytes: 'none' when there is no usable Range
 * header (the whole file is sent), 'unsatisfiable' for a range outside the file (416).
 */
function parseByteRange(header: string | undefined, size: number): ByteRange | 'none' | 'unsatisfiable' {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return 'none';
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/**
 * Sends a stored case file: JPEG and PNG inline with their type, anything else as an
 * application/octet-stream download, never sniffed; one `bytes=` Range gives 206, a range
 * outside the file 416. The SHA-256 stored at upload travels as Repr-Digest.
 *
 * An STL (binary STL halves under gzip) asked for whole by a client that accepts br or gzip
 * goes out compressed as it streams, with Content-Encoding, no Content-Length and no
 * Repr-Digest (the digest of what is sent, which is known only once sent); a Range request
 * still gets the stored bytes as they are (docs/decisions/speed.md § On the wire).
 */
export async function sendCaseFile(request: FastifyRequest, reply: FastifyReply, file: CaseFileDownload) {
  const isImage = inlineTypes.has(file.contentType);
  const isCompressible = file.contentType === contentTypeOf.stl && file.size >= compressionThreshold;
  reply
    .header('content-type', isImage ? file.contentType : 'application/octet-stream')
    .header('content-disposition', contentDisposition(isImage ? 'inline' : 'attachment', file.fileName))
    .header('x-content-type-options', 'nosniff')
    .header('accept-ranges', 'bytes');
  if (isCompressible) reply.header('vary', 'accept-encoding');
  const range = parseByteRange(request.headers.range, file.size);
  const encoding = isCompressible && range === 'none' ? downloadEncoding(request) : undefined;
  if (encoding) {
    reply.header('content-encoding', encoding.encoding);
    if (request.method === 'HEAD') return reply.send();
    // An error on either side reaches the reply through the compressor, which pipeline destroys with it.
    return reply.send(pipeline(await file.open(), encoding.compressor(), () => {}));
  }
  reply.header('repr-digest', `sha-256=:${Buffer.from(file.sha256, 'hex').toString('base64')}:`);
  if (range === 'unsatisfiable') {
    return reply
      .status(416)
      .header('content-range', `bytes */${file.size}`)
      .type('application/json')
      .send({ message: 'The requested range is not in the file' });
  }
  if (range === 'none') {
    reply.header('content-length', file.size);
    return reply.send(request.method === 'HEAD' ? '' : await file.open());
  }
  reply
    .status(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
    .header('content-length', range.end - range.start + 1);
  return reply.send(request.method === 'HEAD' ? '' : await file.open(range));
}
