import negotiate from '@fastify/accept-negotiator';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Transform } from 'node:stream';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';

/**
 * What is compressed per request here: JSON, text and the API docs' scripts and styles. Not
 * event streams (a compressor would hold the frames back; /api/events takes its reply over
 * anyway), not downloads (`application/octet-stream`, images, PDFs: the download route knows
 * which of them are STLs and compresses those itself, below) and not a 206 or anything with
 * Content-Range.
 */
const compressibleTypes =
  /^text\/(?!event-stream)|^application\/(?:[\w.+-]+\+)?json(?:;|$)|^application\/javascript|^image\/svg\+xml/;

/** The encodings offered, preferred first, and the smallest answer worth compressing. */
const encodings: ('br' | 'gzip')[] = ['br', 'gzip'];
export const compressionThreshold = 1024;

/**
 * Answers of 1 KB or more go out brotli- or gzip-compressed when the client accepts it
 * (brotli at quality 4, the library's default, cheap enough per request). The web app's
 * static files are compressed once at build and served as they are (plugins/web-app.ts);
 * request bodies are never decompressed (no zip bombs through the API).
 */
export const compressionPlugin = fp(async (app: FastifyInstance) => {
  await app.register(compress, {
    threshold: compressionThreshold,
    encodings,
    customTypes: compressibleTypes,
    globalDecompression: false,
  });
});

/**
 * The streaming compressors of a large download (docs/benchmarks.md § STL downloads on the
 * wire): brotli at quality 4 with a 256 KiB window (as small on the wire as its 4 MiB default,
 * a sixth of its memory per download), else gzip at level 5. Both run on libuv's threadpool,
 * not on the event loop.
 */
const downloadCompressors = {
  br: () =>
    createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_LGWIN]: 18 } }),
  gzip: () => createGzip({ level: 5 }),
};

/**
 * How to compress a download for this request: the encoding its Accept-Encoding prefers of
 * those offered, read as the plugin reads it (`*` and `x-gzip` are gzip), and its compressor;
 * undefined for identity.
 */
export function downloadEncoding(
  request: FastifyRequest,
): { encoding: 'br' | 'gzip'; compressor(): Transform } | undefined {
  const accepted = request.headers['accept-encoding']?.toLowerCase().replace(/\*|x-gzip/g, 'gzip');
  const encoding = accepted ? negotiate(accepted, encodings) : null;
  return encoding ? { encoding, compressor: downloadCompressors[encoding] } : undefined;
}
