import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { operationOf, PortalMetrics } from '../metrics/portal-metrics.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Its name in metrics (operationOf), set when metrics are on. */
    operation: string;
  }
  interface FastifyInstance {
    metrics: PortalMetrics;
    /** Starts the metrics port when METRICS_PORT is set (main.ts, after the main port): its address, else undefined. */
    listenForMetrics(): Promise<AddressInfo | undefined>;
  }
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether `authorization` is `Bearer <token>`, compared in constant time (digests of equal length). */
function hasToken(authorization: string | undefined, token: string): boolean {
  const given = authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : '';
  return timingSafeEqual(digest(given), digest(token));
}

const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

/**
 * The operator's metrics (docs/operations.md § Metrics, docs/decisions/operations.md § Metrics): `GET /metrics`
 * in Prometheus's text format, outside the JSON API. With METRICS_PORT it is served on a
 * port of its own (at METRICS_HOST, 127.0.0.1 by default) and the main port answers 404;
 * otherwise with METRICS_TOKEN on the main port, to that bearer token only (401 to any
 * other, with no detail); with neither, metrics are off: 404, and no request is measured.
 */
export const metricsPlugin = fp(async (app: FastifyInstance) => {
  const settings = app.config.metrics;
  let inFlight = 0;
  const metrics = new PortalMetrics({
    db: app.db,
    log: app.log,
    poolUsage: () => app.database.poolUsage(),
    openStreams: () => (app.hasDecorator('events') ? app.events.openStreams : 0),
    requestsInFlight: () => inFlight,
    withProcessMetrics: settings !== undefined,
  });
  app.decorate('metrics', metrics);

  if (settings) {
    // Named once per request, in its first hook (Fastify builds routeOptions anew at each read).
    app.decorateRequest('operation', '');
    app.addHook('onRequest', (request, reply, done) => {
      const { config } = request.routeOptions;
      request.operation = operationOf(request);
      // An event stream stays open for hours: the streams gauge counts it instead.
      if (config.operationId !== 'eventStream') {
        inFlight++;
        reply.raw.once('close', () => inFlight--);
      }
      if (config.isStreamedUpload) {
        // Every byte of the body passes through push() as it arrives, whoever reads it and
        // however far (a refused file's bytes too); counting there leaves the stream's flow alone.
        const counter = metrics.uploadBytes.labels({ operation: request.operation });
        const raw = request.raw;
        const push = raw.push.bind(raw);
        raw.push = (chunk: Buffer | null, encoding?: BufferEncoding) => {
          if (chunk) counter.inc(chunk.length);
          return push(chunk, encoding);
        };
      }
      done();
    });
    app.addHook('onResponse', (request, reply, done) => {
      const status = reply.statusCode;
      metrics.requestDuration.observe(
        { operation: request.operation, status_class: statusClass(status) },
        reply.elapsedTime / 1000,
      );
      if (status === 401 && request.signInStep) metrics.signInFailures.inc({ step: request.signInStep });
      done();
    });
  }

  const isOnMainPort = settings?.token !== undefined && settings.port === undefined;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!isOnMainPort) return reply.status(404).send({ message: 'Route GET /metrics not found' });
    if (!hasToken(request.headers.authorization, settings.token!)) {
      return reply.status(401).header('www-authenticate', 'Bearer').send({ message: 'Unauthorized' });
    }
    return reply
      .header('cache-control', 'no-store')
      .type(metrics.contentType)
      .send(await metrics.scrape());
  });

  let server: Server | undefined;
  app.decorate('listenForMetrics', async () => {
    if (settings?.port === undefined) return undefined;
    server = createServer((request, response) => void answerScrape(request, response));
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject).listen(settings.port, settings.host, () => resolve());
    });
    return server.address() as AddressInfo;
  });
  app.addHook('onClose', async () => {
    metrics.stopProcessMetrics();
    if (!server) return;
    const closed = new Promise((resolve) => server!.close(resolve));
    server.closeAllConnections();
    await closed;
  });

  /** The metrics port: GET /metrics (to the token too when METRICS_TOKEN is set), 404 for anything else. */
  async function answerScrape(request: IncomingMessage, response: ServerResponse) {
    const path = (request.url ?? '').split('?')[0];
    const send = (status: number, type: string, body: string, headers: Record<string, string> = {}) =>
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers }).end(body);
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return send(404, 'text/plain; charset=utf-8', 'Not found\n');
    }
    if (settings?.token !== undefined && !hasToken(request.headers.authorization, settings.token)) {
      return send(401, 'text/plain; charset=utf-8', 'Unauthorized\n', { 'www-authenticate': 'Bearer' });
    }
    try {
      send(200, metrics.contentType, await metrics.scrape());
    } catch (error) {
      app.log.error({ err: error }, 'metrics: scrape failed');
      send(500, 'text/plain; charset=utf-8', 'Scrape failed\n');
    }
  }
});
