import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * What is compressed per request: JSON, text and the API docs' scripts and styles. Not
 * event streams (a compressor would hold the frames back; /api/events takes its reply over
 * anyway), not downloads (`application/octet-stream`, images, PDFs: sent as stored, with
 * their Content-Length and byte ranges) and not a 206 or anything with Content-Range.
 */
const compressibleTypes =
  /^text\/(?!event-stream)|^application\/(?:[\w.+-]+\+)?json(?:;|$)|^application\/javascript|^image\/svg\+xml/;

/**
 * Answers of 1 KB or more go out brotli- or gzip-compressed when the client accepts it
 * (brotli at quality 4, the library's default, cheap enough per request). The web app's
 * static files are compressed once at build and served as they are (plugins/web-app.ts);
 * request bodies are never decompressed (no zip bombs through the API).
 */
export const compressionPlugin = fp(async (app: FastifyInstance) => {
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    customTypes: compressibleTypes,
    globalDecompression: false,
  });
});
