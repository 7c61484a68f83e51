import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { Listeners, parseMessage, type BusListener, type BusMessage, type EventBus } from './bus.ts';

/** The NOTIFY channel; one database per portal, so the name need not say which portal. */
const postgresChannel = 'portal_events';
const reconnectDelayMs = 1000;

/**
 * PostgreSQL LISTEN/NOTIFY: one dedicated connection per process listens (a pooled one
 * would be handed to other queries); `publish` notifies through a short-lived query on
 * the same database. A lost listening connection is reopened after a second; events
 * raised meanwhile are missed by this process's streams (clients refetch on reconnect).
 */
export class PostgresBus implements EventBus {
  readonly kind = 'postgres';
  private readonly listeners = new Listeners();
  private client: pg.Client | null = null;
  private publisher: pg.Pool;
  private isClosed = false;
  private reconnectTimer: NodeJS.Timeout | undefined;

  private readonly connectionString: string;
  private readonly log: FastifyBaseLogger;

  private constructor(connectionString: string, log: FastifyBaseLogger) {
    this.connectionString = connectionString;
    this.log = log;
    this.publisher = new pg.Pool({ connectionString, max: 2, connectionTimeoutMillis: 5000 });
    this.publisher.on('error', () => {});
  }

  static async connect(connectionString: string, log: FastifyBaseLogger): Promise<PostgresBus> {
    const bus = new PostgresBus(connectionString, log);
    await bus.listen().catch((error: unknown) => {
      log.error({ err: error }, 'events: could not LISTEN on PostgreSQL; retrying');
      bus.scheduleReconnect();
    });
    return bus;
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, connectionTimeoutMillis: 5000 });
    const lost = () => {
      if (this.client !== client) return;
      this.client = null;
      client.end().catch(() => {});
      if (!this.isClosed) {
        this.log.warn('events: the LISTEN connection to PostgreSQL was lost; reconnecting');
        this.scheduleReconnect();
      }
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (notification) => {
      if (notification.channel !== postgresChannel || !notification.payload) return;
      const message = parseMessage(notification.payload);
      if (message) this.listeners.deliver(message);
    });
    await client.connect();
    this.client = client;
    await client.query(`listen ${postgresChannel}`);
    if (this.isClosed) await this.close();
  }

  private scheduleReconnect(): void {
    if (this.isClosed || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.listen().catch(() => this.scheduleReconnect());
    }, reconnectDelayMs);
    this.reconnectTimer.unref();
  }

  async publish(message: BusMessage): Promise<void> {
    // NOTIFY payloads are limited to 8000 bytes; events are a few dozen.
    await this.publisher.query('select pg_notify($1, $2)', [postgresChannel, JSON.stringify(message)]);
  }

  subscribe(listener: BusListener): () => void {
    return this.listeners.add(listener);
  }

  async close(): Promise<void> {
    this.isClosed = true;
    clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = null;
    await Promise.allSettled([client?.end(), this.publisher.end()]);
  }
}
