import type { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

interface Watched {
  request: FastifyRequest;
  socket: Socket;
  bytesRead: number;
  lastProgress: number;
}

/**
 * Closes the connection of a request whose body brings no new byte for
 * BODY_STALL_TIMEOUT (60 s by default). Progress, not total time, is what counts: a slow
 * 1 GB upload that keeps moving is never cut, while a client that sent headers and a few
 * bytes and then went quiet no longer holds a socket (and a shutdown) forever. Fastify's
 * requestTimeout would bound the whole request instead, and Node's socket timeout also
 * runs while a handler works, so the socket's received byte count is sampled while the
 * body is incomplete. Node's headersTimeout already covers a request whose head stalls.
 */
export const bodyStallPlugin = fp(async (app: FastifyInstance) => {
  const stallMs = app.config.bodyStallTimeoutSeconds * 1000;
  const watched = new Map<IncomingMessage, Watched>();
  let timer: NodeJS.Timeout | undefined;

  const check = () => {
    const now = Date.now();
    for (const [raw, entry] of watched) {
      if (raw.complete || raw.destroyed || entry.socket.destroyed) {
        watched.delete(raw);
        continue;
      }
      if (entry.socket.bytesRead !== entry.bytesRead) {
        entry.bytesRead = entry.socket.bytesRead;
        entry.lastProgress = now;
        continue;
      }
      if (now - entry.lastProgress >= stallMs) {
        watched.delete(raw);
        entry.request.log.info(
          { stalledSeconds: Math.round((now - entry.lastProgress) / 1000), bytesRead: entry.bytesRead },
          'request body stalled: connection closed',
        );
        entry.socket.destroy();
      }
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
    watched.set(raw, { request, socket: raw.socket, bytesRead: raw.socket.bytesRead, lastProgress: Date.now() });
    timer ??= setInterval(check, Math.min(1000, stallMs / 4)).unref();
  });

  app.addHook('onClose', async () => {
    clearInterval(timer);
    watched.clear();
  });
});
