import type { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

interface Watched {
  request: FastifyRequest;
  socket: Socket;
  bytesRead: number;
  lastProgress: number;
  /** When a body that is not a streamed upload must be in; none for streamed uploads. */
  deadline?: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A large streamed upload (define-route's isStreamedUpload): no body deadline. */
    isStreamedUpload?: boolean;
  }
}

/** The rate a small body's deadline allows beyond BODY_TIMEOUT: a second per 64 KiB declared. */
const minimumBytesPerSecond = 64 * 1024;
/** No route but a streamed upload takes more than this; a larger declared length buys no more time. */
const largestSmallBody = 16 * 1024 * 1024;

/** A small body's time: BODY_TIMEOUT, plus a second per 64 KiB of its declared length. */
function bodyDeadlineMs(request: FastifyRequest, bodyTimeoutSeconds: number): number {
  const declared = Math.min(Number(request.headers['content-length']) || 0, largestSmallBody);
  return (bodyTimeoutSeconds + declared / minimumBytesPerSecond) * 1000;
}

/**
 * Closes the connection of a request whose body takes too long, by two rules.
 * Stall: a body that brings no new byte for BODY_STALL_TIMEOUT (60 s by default). For
 * streamed uploads (case files, plans, message attachments) progress, not total time, is
 * what counts: a slow 1 GB upload that keeps moving is never cut, while a client that sent
 * headers and a few bytes and then went quiet no longer holds a socket (and a shutdown)
 * forever. Deadline: every other body (JSON, the profile forms, a request no route takes)
 * must be in within BODY_TIMEOUT (15 s) plus a second per 64 KiB it declares, so a body
 * trickling a byte every few seconds cannot hold a connection for minutes. Fastify's
 * requestTimeout would bound the whole request instead, and Node's socket timeout also
 * runs while a handler works, so the socket's received byte count is sampled while the
 * body is incomplete. Node's headersTimeout already covers a request whose head stalls.
 */
export const bodyStallPlugin = fp(async (app: FastifyInstance) => {
  const { bodyStallTimeoutSeconds, bodyTimeoutSeconds } = app.config;
  const stallMs = bodyStallTimeoutSeconds * 1000;
  const watched = new Map<IncomingMessage, Watched>();
  let timer: NodeJS.Timeout | undefined;

  const close = (raw: IncomingMessage, entry: Watched, message: string) => {
    watched.delete(raw);
    const { bytesRead, lastProgress } = entry;
    entry.request.log.info({ stalledSeconds: Math.round((Date.now() - lastProgress) / 1000), bytesRead }, message);
    entry.socket.destroy();
  };

  const check = () => {
    const now = Date.now();
    for (const [raw, entry] of watched) {
      if (raw.complete || raw.destroyed || entry.socket.destroyed) {
        watched.delete(raw);
        continue;
      }
      if (entry.deadline !== undefined && now >= entry.deadline) {
        close(raw, entry, 'request body not in by its deadline (BODY_TIMEOUT): connection closed');
        continue;
      }
      if (entry.socket.bytesRead !== entry.bytesRead) {
        entry.bytesRead = entry.socket.bytesRead;
        entry.lastProgress = now;
        continue;
      }
      if (now - entry.lastProgress >= stallMs) close(raw, entry, 'request body stalled: connection closed');
    }
    if (watched.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };

  app.addHook('onRequest', async (request) => {
    const { raw } = request;
    // app.inject's requests have no real socket and nobody to wait for.
    if (raw.complete || !(raw.socket instanceof Socket)) return;
    const now = Date.now();
    const isStreamedUpload = request.routeOptions.config.isStreamedUpload === true;
    const deadline = isStreamedUpload ? undefined : now + bodyDeadlineMs(request, bodyTimeoutSeconds);
    watched.set(raw, { request, socket: raw.socket, bytesRead: raw.socket.bytesRead, lastProgress: now, deadline });
    timer ??= setInterval(check, Math.min(1000, stallMs / 4, (bodyTimeoutSeconds * 1000) / 4)).unref();
  });

  app.addHook('onClose', async () => {
    clearInterval(timer);
    watched.clear();
  });
});
