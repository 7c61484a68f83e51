import { endpoints, sseFrame, type AuditAction, type LiveEvent } from '@portal/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ServerResponse } from 'node:http';
import { isAllowed, isDoctorSide, servesDoctor, type SignedInUser } from '../auth/policy.ts';
import { isSessionsEnded, type BusMessage, type CaseEventMessage, type EventBus } from '../events/bus.ts';
import { LocalBus } from '../events/local-bus.ts';
import { PostgresBus } from '../events/postgres-bus.ts';
import { readToken } from './auth.ts';

declare module 'fastify' {
  interface FastifyInstance {
    events: LiveEvents;
  }
}

export interface LiveEventsOptions {
  /** A `: heartbeat` comment this often keeps proxies from closing a quiet stream. */
  heartbeatMs?: number;
  /** Every open stream's session is checked again this often (logout elsewhere, deactivation, a page revoked). */
  sessionCheckMs?: number;
}

/** A stream that cannot keep up (this much unsent) is closed; EventSource reconnects and the client refetches. */
const maxBufferedBytes = 1024 * 1024;

/**
 * Streams one user may hold on this process: a tab holds one, so this is ten tabs. Opening
 * another ends the user's oldest, which is most likely a tab long gone (issue 20: one
 * token opened 3,000, 14 KB and a file descriptor each).
 */
export const maxStreamsPerUser = 10;
/** Case events held while streams are checked after an access change; past this they go out at once, as before the check. */
const maxHeldEvents = 1000;

interface OpenStream {
  user: SignedInUser;
  token: string;
  response: ServerResponse;
}

/**
 * Changes that may take away a stream's access (audited as these actions): when one
 * succeeds, every process checks its streams' sessions at once instead of at the next
 * periodic check. Role and permission changes reach many users, so all streams are checked.
 * Ending a session (signing out included) needs no check: `endSessions` names its streams.
 */
const accessChangingActions = new Set<AuditAction>([
  'auth.password_reset',
  'role.update',
  'role.delete',
  'permission.revoke',
  'user.update',
  'user.delete',
  'doctor.update',
  'doctor.activate',
  'doctor.delete',
  'assistant.revoke',
]);

/** May this stream's user see this event? Staff with the stream's access see every case; a doctor their own, an assistant their doctors'. */
function mayReceive(user: SignedInUser, message: CaseEventMessage): boolean {
  if (isDoctorSide(user)) return servesDoctor(user, message.audience.doctorUserId);
  return isAllowed(user, endpoints.eventStream.access);
}

/**
 * The streams this process holds and the bus that feeds them. Changes publish here after
 * they commit; every process hears them from the bus and writes them to the streams whose
 * users may see them.
 */
class LiveEvents {
  private readonly streams = new Set<OpenStream>();
  private readonly timers: NodeJS.Timeout[] = [];
  private isChecking = false;
  /** A check was asked for while one ran: the running one may have read the sessions before the change. */
  private isCheckDue = false;
  /**
   * Case events that arrived while the streams were checked after an access change: sent once
   * the check has read each stream's user again, so a revoked reach gets none of them.
   */
  private held: CaseEventMessage[] | undefined;

  private readonly app: FastifyInstance;
  readonly bus: EventBus;

  constructor(app: FastifyInstance, bus: EventBus, options: Required<LiveEventsOptions>) {
    this.app = app;
    this.bus = bus;
    bus.subscribe((message) => this.deliver(message));
    this.timers.push(setInterval(() => this.writeAll(': heartbeat\n\n'), options.heartbeatMs).unref());
    this.timers.push(setInterval(() => void this.checkSessions(), options.sessionCheckMs).unref());
  }

  get openStreams(): number {
    return this.streams.size;
  }

  /** Called after the change committed; a bus that is down loses the event (logged), never the change. */
  async publish(event: LiveEvent, audience: CaseEventMessage['audience']): Promise<void> {
    await this.bus.publish({ event, audience }).catch((error: unknown) => {
      this.app.log.warn({ err: error, event: event.type }, 'events: not published');
    });
  }

  /** After an access change committed: every process checks its streams now (a bus that is down leaves the periodic check). */
  async publishSessionsChanged(): Promise<void> {
    await this.bus.publish({ sessionsChanged: true }).catch((error: unknown) => {
      this.app.log.warn({ err: error }, 'events: sessions change not published');
    });
  }

  /** Takes the request over: an open text/event-stream until the client, the session or the server ends it. */
  open(request: Pick<FastifyRequest, 'headers' | 'method' | 'cookies'>, reply: FastifyReply, user: SignedInUser): void {
    const token = readToken(request)!;
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string | number | string[]>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'private, no-store',
      'x-accel-buffering': 'no',
      // A stream that ends (signed out, session ended, shutdown) takes its connection with it:
      // kept alive, Node's server counted it busy and a shutdown waited a minute for it.
      connection: 'close',
    });
    // How long EventSource waits before reconnecting, then a first line so the client knows it is open.
    response.write('retry: 3000\n: connected\n\n');
    const stream: OpenStream = { user, token, response };
    // The set keeps the order streams were opened in: the first of the user's is the oldest.
    const own = [...this.streams].filter((open) => open.user.userId === user.userId);
    for (const oldest of own.slice(0, Math.max(0, own.length - maxStreamsPerUser + 1))) this.end(oldest);
    this.streams.add(stream);
    response.on('close', () => this.streams.delete(stream));
  }

  /**
   * Ends the streams of sessions that ended (their rows are gone): here at once, and on every
   * other process when the bus carries it; one that misses it finds out at its next check.
   */
  async endSessions(sessionIds: string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    this.endLocalSessions(sessionIds);
    // A PostgreSQL NOTIFY carries at most 8000 bytes: 100 ids (about 4 KB) a message.
    for (let start = 0; start < sessionIds.length; start += 100) {
      const endedSessionIds = sessionIds.slice(start, start + 100);
      await this.bus.publish({ endedSessionIds }).catch((error: unknown) => {
        this.app.log.warn({ err: error }, 'events: ended sessions not published');
      });
    }
  }

  private endLocalSessions(sessionIds: readonly string[]): void {
    const ended = new Set(sessionIds);
    for (const stream of this.streams) if (ended.has(stream.user.jti)) this.end(stream);
  }

  /** Ends every stream: the server is shutting down. */
  endAll(): void {
    for (const stream of this.streams) this.end(stream);
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.endAll();
    await this.bus.close();
  }

  private end(stream: OpenStream): void {
    this.streams.delete(stream);
    stream.response.end();
  }

  private write(stream: OpenStream, text: string): void {
    if (stream.response.writableLength > maxBufferedBytes) {
      // Ending would wait behind what it has not read: drop the connection instead.
      this.streams.delete(stream);
      stream.response.destroy();
      return;
    }
    stream.response.write(text);
  }

  private writeAll(text: string): void {
    for (const stream of this.streams) this.write(stream, text);
  }

  private deliver(message: BusMessage): void {
    if (isSessionsEnded(message)) return this.endLocalSessions(message.endedSessionIds);
    if ('sessionsChanged' in message) {
      this.held ??= [];
      return void this.checkSessions();
    }
    if (this.held && this.held.length < maxHeldEvents) return void this.held.push(message);
    this.send(message);
  }

  private send(message: CaseEventMessage): void {
    const frame = sseFrame(message.event);
    for (const stream of this.streams) if (mayReceive(stream.user, message)) this.write(stream, frame);
  }

  /** Checks each open stream's session again (once per token); a stream whose session ended is closed. */
  async checkSessions(): Promise<void> {
    if (this.isChecking) {
      this.isCheckDue = true;
      return;
    }
    this.isChecking = true;
    try {
      do {
        this.isCheckDue = false;
        await this.checkEachSession();
      } while (this.isCheckDue);
    } finally {
      this.isChecking = false;
      const held = this.held ?? [];
      this.held = undefined;
      for (const message of held) this.send(message);
    }
  }

  private async checkEachSession(): Promise<void> {
    const byToken = new Map<string, OpenStream[]>();
    for (const stream of this.streams) byToken.set(stream.token, [...(byToken.get(stream.token) ?? []), stream]);
    for (const [token, streams] of byToken) {
      const user = await this.app.loadSession(token).catch(() => undefined);
      // The database did not answer: keep the streams until the next check.
      if (user === undefined) continue;
      for (const stream of streams) {
        // A session that must set up a second factor first is refused the stream as any route (plugins/auth.ts).
        if (user && !user.mustEnrol && isAllowed(user, endpoints.eventStream.access)) stream.user = user;
        else this.end(stream);
      }
    }
  }
}

async function connectBus(app: FastifyInstance): Promise<EventBus> {
  // ioredis is loaded only when REDIS_URL is set.
  if (app.config.redisUrl) {
    const { RedisBus } = await import('../events/redis-bus.ts');
    return RedisBus.connect(app.config.redisUrl, app.log);
  }
  if (app.database.connectionString) return PostgresBus.connect(app.database.connectionString, app.log);
  return new LocalBus();
}

/**
 * `app.events`: live updates. Across processes through Redis when REDIS_URL is set, else
 * PostgreSQL LISTEN/NOTIFY, else (PGlite, one process) within this process.
 */
export const eventsPlugin = fp(async (app: FastifyInstance, options: LiveEventsOptions) => {
  const bus = await connectBus(app);
  const events = new LiveEvents(app, bus, {
    heartbeatMs: options.heartbeatMs ?? 25_000,
    sessionCheckMs: options.sessionCheckMs ?? 30_000,
  });
  app.decorate('events', events);
  // Before the server waits for requests in flight: open streams would hold it forever.
  app.addHook('preClose', async () => events.endAll());
  // Before the answer goes out (the change has committed): a change the caller makes next is
  // published after this, so every process checks its streams before that change's event.
  app.addHook('onSend', async (request, reply) => {
    const action = request.auditDetail?.action ?? request.routeOptions.config?.audit?.action;
    if (action && accessChangingActions.has(action) && reply.statusCode < 400) await events.publishSessionsChanged();
  });
  app.addHook('onClose', () => events.close());
});
