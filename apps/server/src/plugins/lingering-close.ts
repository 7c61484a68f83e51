import type { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** How long a connection answered before its body was read goes on reading that body. */
export interface LingeringOptions {
  /** The most time from the answer to the close, whatever arrives (nginx's lingering_time). */
  totalMs?: number;
  /** The close comes sooner once nothing arrived for this long (nginx's lingering_timeout). */
  idleMs?: number;
}

/** nginx's defaults: 30 s in all, 5 s without a byte. */
const defaults = { totalMs: 30_000, idleMs: 5_000 };
/**
 * How often the lingering sockets are looked at. The bytes arrive in the HTTP parser, which
 * reads the socket itself and tells nobody of a discarded body's bytes: the count is the
 * socket's, sampled, so the byte bound can be passed by what arrives in this long.
 */
const checkEveryMs = 100;
/**
 * What a lingering body is read at, at most, per check (2.5 MB/s): a client reads the answer
 * long before, and the chunks thrown away stay few. Read at loopback speed, 24 huge forms at
 * once grew the process by 300 MB of discarded chunks waiting for the collector.
 */
const bytesPerCheck = 256 * 1024;

/**
 * An answer given before its body was read whole (401, 403, 404, 409, 413, 429 to an upload)
 * says `Connection: close`, and the connection is closed as nginx's lingering_close does:
 * the answer is written and the sending side shut (FIN), and what the client still sends is
 * read and thrown away until it stops or a bound is reached; only then is the socket closed.
 * Closing at once with bytes unread makes the kernel reset the connection, and a client
 * still sending (a browser or Node's fetch mid-upload) then reports "connection reset"
 * instead of the answer: a plan upload to a missing case read its 404 4 times in 20 at
 * 8 MB. The bounds: totalMs and idleMs, and no more bytes than MAX_UPLOAD_BYTES; the
 * connection still counts toward MAX_CONNECTIONS_PER_ADDRESS (plugins/connection-limit.ts)
 * and BODY_STALL_TIMEOUT and BODY_TIMEOUT still apply (plugins/body-stall.ts); a closing
 * server ends it at once.
 *
 * Node closes a `Connection: close` response's socket with socket.destroySoon() once the
 * answer is out (resOnFinish in node:http), so that method is the one place taken over, on
 * the sockets of requests that came with a body; every answer, Fastify's or one written to
 * the raw response (tus), goes through it.
 */
export const lingeringClosePlugin = fp(async (app: FastifyInstance, options: LingeringOptions) => {
  const totalMs = options.totalMs ?? defaults.totalMs;
  const idleMs = options.idleMs ?? defaults.idleMs;
  const maxBytes = app.config.maxUploadBytes;
  /** Each socket's latest request, for its destroySoon. */
  const requests = new WeakMap<Socket, IncomingMessage>();
  /** The sockets lingering: when it began, the socket's bytes read then and at its last progress. */
  const lingering = new Map<
    Socket,
    { since: number; startBytes: number; lastProgress: number; bytesRead: number; checkedBytes: number }
  >();
  let timer: NodeJS.Timeout | undefined;
  let isClosing = false;

  const check = () => {
    const now = Date.now();
    for (const [socket, entry] of lingering) {
      if (socket.bytesRead !== entry.bytesRead) {
        entry.bytesRead = socket.bytesRead;
        entry.lastProgress = now;
      }
      const isOver =
        now - entry.since >= totalMs ||
        now - entry.lastProgress >= idleMs ||
        entry.bytesRead - entry.startBytes >= maxBytes;
      if (isOver) socket.destroy();
      else if (socket.isPaused()) {
        entry.checkedBytes = socket.bytesRead;
        socket.resume();
        pace(socket, entry);
      }
    }
  };

  function linger(socket: Socket, request: IncomingMessage) {
    // The answer goes out, then FIN: the client reads it whole while it still sends.
    if (socket.writable) socket.end();
    // The rest of the body goes nowhere: off any parser it was piped to, and read on
    // (a paused request would stop the socket's reads, and the client's sends with them).
    request.unpipe();
    request.removeAllListeners('data');
    request.resume();
    const now = Date.now();
    const { bytesRead } = socket;
    const entry = { since: now, startBytes: bytesRead, lastProgress: now, bytesRead, checkedBytes: bytesRead };
    lingering.set(socket, entry);
    pace(socket, entry);
    timer ??= setInterval(check, checkEveryMs).unref();
    // The client sent the whole body, or all it had (FIN): nothing is left to wait for once
    // the answer is out (a bound above ends it if the client never reads it).
    const closeOnceAnswered = () => {
      if (socket.writableFinished) socket.destroy();
      else socket.once('finish', () => socket.destroy());
    };
    request.once('end', closeOnceAnswered);
    socket.once('end', closeOnceAnswered);
    socket.once('close', () => {
      lingering.delete(socket);
      if (lingering.size === 0) {
        clearInterval(timer);
        timer = undefined;
      }
    });
  }

  /**
   * Past bytesPerCheck since the last check the socket is paused (the HTTP server's pause
   * stops its reads), and the next check resumes it; looked at once per turn of the event
   * loop, which reads a bounded amount per socket.
   */
  function pace(socket: Socket, entry: { checkedBytes: number }) {
    const look = () => {
      if (socket.destroyed || socket.isPaused()) return;
      if (socket.bytesRead - entry.checkedBytes >= bytesPerCheck) socket.pause();
      else setImmediate(look);
    };
    setImmediate(look);
  }

  function destroySoon(this: Socket) {
    const request = requests.get(this);
    if (request && !request.complete && !request.destroyed && !this.destroyed && !isClosing) linger(this, request);
    else Socket.prototype.destroySoon.call(this);
  }

  app.addHook('onRequest', async (request) => {
    const { raw } = request;
    // app.inject's requests have no real socket; a request without a body leaves nothing unread.
    if (raw.complete || !(raw.socket instanceof Socket)) return;
    requests.set(raw.socket, raw);
    if (raw.socket.destroySoon !== destroySoon) raw.socket.destroySoon = destroySoon;
  });

  // An answer given before its body was read whole closes the connection: the rest of the
  // body is not worth receiving, and a keep-alive would wait for it.
  app.addHook('onSend', async (request, reply) => {
    if (!request.raw.complete && request.raw.socket instanceof Socket) reply.header('connection', 'close');
  });

  // A closing server does not wait for bytes nobody wants.
  app.addHook('preClose', async () => {
    isClosing = true;
    for (const socket of lingering.keys()) socket.destroy();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
  });
});
