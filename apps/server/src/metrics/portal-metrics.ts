import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database, PoolUsage } from '../db/client.ts';
import { jobs, mailOutbox, storedTotals } from '../db/schema.ts';
import { registerProcessMetrics } from './process-metrics.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The endpoint table's operationId (define-route.ts): the route's name in metrics. */
    operationId?: string;
  }
  interface FastifyRequest {
    /** Set by the sign-in throttle on a sign-in step ('login', 'second-factor', 'passkey'): a 401 to it is a failed sign-in. */
    signInStep?: string;
  }
}

/**
 * A request's name in metrics: its row's operationId, or a fixed name for the few routes
 * outside the table. Never the URL: it may carry a case id, a file id or a patient's name.
 */
export function operationOf(request: FastifyRequest): string {
  const { config, url } = request.routeOptions;
  if (config.operationId) return config.operationId;
  // No route matched (Fastify's not-found handler), or the web app's fallback refused an /api path.
  if (url === undefined || (url === '/*' && request.url.startsWith('/api/'))) return 'notFound';
  if (url.startsWith('/api/docs')) return 'apiDocs';
  if (url.startsWith('/api/uploads/tus')) return `tus${request.method}`;
  if (url === '/metrics') return 'metrics';
  return 'webApp';
}

/** What the gauges read from the database at a scrape. */
interface StoredState {
  mailWaiting: number;
  mailFailed: number;
  jobsQueued: number;
  jobsRunning: number;
  /** stored_totals' two rows. */
  stored: { kind: 'original' | 'viewing_copy'; files: number; bytes: number }[];
}

export interface PortalMetricsOptions {
  db: Database;
  log: FastifyBaseLogger;
  poolUsage: () => PoolUsage[];
  /** Event streams this process holds (plugins/events.ts); read at a scrape. */
  openStreams: () => number;
  /** Requests this process is answering, event streams aside; read at a scrape. */
  requestsInFlight: () => number;
  /** The process's metrics (CPU, memory, event loop, files) too: only when metrics are served, as the event loop monitor keeps running. */
  withProcessMetrics: boolean;
}

/**
 * The portal's metrics, in a registry of its own (several apps in one test process count
 * apart). Counters are incremented where things happen; gauges of state are read when
 * Prometheus scrapes (`collect`), the database's in one query over partial indexes and
 * trigger-kept totals, so a scrape costs the same however many mails were sent, jobs done
 * and files stored over the years.
 * Labels are fixed names (operationId, status class, pool, job kind): no user, case or patient.
 */
export class PortalMetrics {
  readonly registry = new Registry();
  /** Stops what the process metrics keep running (the event loop delay monitor). */
  readonly stopProcessMetrics: () => void = () => {};

  readonly requestDuration = new Histogram({
    name: 'portal_http_request_duration_seconds',
    help: 'Time to answer a request, by the endpoint table operationId and the status class (2xx, 4xx, ...)',
    labelNames: ['operation', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  readonly uploadBytes = new Counter({
    name: 'portal_upload_bytes_total',
    help: 'Bytes of request bodies received by the upload routes (case files, plans, message attachments, tus)',
    labelNames: ['operation'] as const,
    registers: [this.registry],
  });

  readonly signInFailures = new Counter({
    name: 'portal_sign_in_failures_total',
    help: 'Sign-in steps refused with 401 (wrong password, code or passkey), by step',
    labelNames: ['step'] as const,
    registers: [this.registry],
  });

  readonly throttled = new Counter({
    name: 'portal_throttled_requests_total',
    help: 'Requests refused with 429 by a throttle, by operation and the limit reached',
    labelNames: ['operation', 'limit'] as const,
    registers: [this.registry],
  });

  readonly jobsFailed = new Counter({
    name: 'portal_jobs_failed_total',
    help: 'Background jobs this process gave up on after their last attempt, by kind',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  private readonly stateFailures = new Counter({
    name: 'portal_metrics_state_failures_total',
    help: 'Scrapes whose read of the outbox, job and storage counts failed (those gauges keep their last value)',
    registers: [this.registry],
  });

  private stateQuery: Promise<StoredState | undefined> | undefined;
  private readonly options: PortalMetricsOptions;

  constructor(options: PortalMetricsOptions) {
    this.options = options;
    const registers = [this.registry];
    const inFlight = new Gauge({
      name: 'portal_http_requests_in_flight',
      help: 'Requests being answered by this process (event streams are counted apart)',
      registers,
      collect: () => {
        inFlight.set(options.requestsInFlight());
      },
    });
    const streams = new Gauge({
      name: 'portal_event_streams_open',
      help: 'Live event streams this process holds open',
      registers,
      collect: () => {
        streams.set(options.openStreams());
      },
    });
    const mail = new Gauge({
      name: 'portal_mail_outbox',
      help: 'Mails in the outbox not sent: waiting (to be sent or retried) and failed (given up after the last attempt); all processes',
      labelNames: ['state'] as const,
      registers,
      collect: async () => {
        const state = await this.readState();
        if (!state) return;
        mail.set({ state: 'waiting' }, state.mailWaiting);
        mail.set({ state: 'failed' }, state.mailFailed);
      },
    });
    const queue = new Gauge({
      name: 'portal_jobs',
      help: 'Background jobs queued (due or waiting to retry) and running; all processes',
      labelNames: ['state'] as const,
      registers,
      collect: async () => {
        const state = await this.readState();
        if (!state) return;
        queue.set({ state: 'queued' }, state.jobsQueued);
        queue.set({ state: 'running' }, state.jobsRunning);
      },
    });
    const storedFiles = new Gauge({
      name: 'portal_stored_files',
      help: "Patients' files in storage: originals (case files, message attachments, plan stages) and their viewing copies",
      labelNames: ['kind'] as const,
      registers,
      collect: async () => {
        for (const row of (await this.readState())?.stored ?? []) storedFiles.set({ kind: row.kind }, row.files);
      },
    });
    const storedBytes = new Gauge({
      name: 'portal_stored_bytes',
      help: "Bytes of patients' files in storage: originals (case files, message attachments, plan stages) and their viewing copies",
      labelNames: ['kind'] as const,
      registers,
      collect: async () => {
        for (const row of (await this.readState())?.stored ?? []) storedBytes.set({ kind: row.kind }, row.bytes);
      },
    });
    const poolConnections = new Gauge({
      name: 'portal_db_pool_connections',
      help: "Database connections of this process's pools, in use and idle (PGlite: one connection)",
      labelNames: ['pool', 'state'] as const,
      registers,
      collect: () => {
        for (const usage of options.poolUsage()) {
          poolConnections.set({ pool: usage.pool, state: 'in_use' }, usage.inUse);
          poolConnections.set({ pool: usage.pool, state: 'idle' }, usage.idle);
        }
      },
    });
    const poolWaiting = new Gauge({
      name: 'portal_db_pool_waiting',
      help: 'Queries waiting for a database connection in this process',
      labelNames: ['pool'] as const,
      registers,
      collect: () => {
        for (const usage of options.poolUsage()) poolWaiting.set({ pool: usage.pool }, usage.waiting);
      },
    });
    if (options.withProcessMetrics) this.stopProcessMetrics = registerProcessMetrics(this.registry);
  }

  /** The text Prometheus scrapes. */
  async scrape(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** One query per scrape for the database gauges: the first collect starts it, the others share it. */
  private readState(): Promise<StoredState | undefined> {
    this.stateQuery ??= this.queryState().finally(() => (this.stateQuery = undefined));
    return this.stateQuery;
  }

  private async queryState(): Promise<StoredState | undefined> {
    try {
      // Each count reads a partial index (mail_outbox_pending_idx, jobs_due_idx): only what is pending.
      const result = (await this.options.db.execute(sql`select
          (select count(*)::int from ${mailOutbox} where ${mailOutbox.sentAt} is null
            and ${mailOutbox.nextAttemptAt} <> 'infinity') as "mailWaiting",
          (select count(*)::int from ${mailOutbox} where ${mailOutbox.sentAt} is null
            and ${mailOutbox.nextAttemptAt} = 'infinity') as "mailFailed",
          (select count(*)::int from ${jobs} where ${jobs.state} = 'queued') as "jobsQueued",
          (select count(*)::int from ${jobs} where ${jobs.state} = 'running') as "jobsRunning",
          (select json_agg(json_build_object('kind', ${storedTotals.kind}, 'files', ${storedTotals.files},
            'bytes', ${storedTotals.bytes})) from ${storedTotals}) as "stored"`)) as unknown as {
        rows: StoredState[];
      };
      return result.rows[0];
    } catch (error) {
      this.stateFailures.inc();
      this.options.log.warn({ err: error }, 'metrics: outbox, job and storage counts not read');
      return undefined;
    }
  }
}
