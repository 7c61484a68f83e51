import type { AuditAction, AuditOutcome } from '@portal/contract';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { loggablePath } from '../lib/logging.ts';
import { recordAudit, type AuditRecord } from '../services/audit.ts';

/** What a route records in the audit log, declared beside its access as `config.audit`. */
export interface AuditConfig {
  action: AuditAction;
  /** What was acted on, e.g. `case:12`; a handler may set `request.auditDetail.target` instead. */
  target?: (request: FastifyRequest) => string | undefined;
  /** Who it was when no one is signed in: the username typed at a sign-in. */
  actorName?: (request: FastifyRequest) => string | undefined;
}

/** What only the handler knows: an id it made, the user who just signed in, a more precise action. */
interface AuditDetail {
  target?: string;
  actorUserId?: number;
  action?: AuditAction;
  /** What a change changed: each setting's before and after (the lab's settings). */
  changes?: Record<string, { before: unknown; after: unknown }>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    audit?: AuditConfig;
  }
  interface FastifyRequest {
    auditDetail: AuditDetail | null;
  }
  interface FastifyInstance {
    /** Resolves once every audit row whose write has started is written (or its failure logged). */
    auditWritten: () => Promise<void>;
  }
}

/**
 * `kind:id` from path parameters, e.g. `paramTarget({ role: 'roleId', page: 'pageId' })` gives
 * `role:5/page:1`; nothing when a parameter is not a whole number (a refused request may carry anything).
 */
export const paramTarget =
  (params: Record<string, string>) =>
  (request: FastifyRequest): string | undefined => {
    const values = request.params as Record<string, unknown>;
    const parts = Object.entries(params).map(([kind, name]) => [kind, String(values[name])] as const);
    if (!parts.every(([, id]) => /^-?\d{1,10}$/.test(id))) return undefined;
    return parts.map(([kind, id]) => `${kind}:${id}`).join('/');
  };

const isRefusal = (status: number) => status === 401 || status === 403;

function outcomeOf(status: number, isPublic: boolean): AuditOutcome {
  if (status < 400) return 'success';
  return isRefusal(status) && !isPublic ? 'refused' : 'failure';
}

/** The entry a finished request leaves, if any: audited routes always, any other /api route when refused. */
function auditRecordFor(request: FastifyRequest, statusCode: number): AuditRecord | undefined {
  const { access, audit } = request.routeOptions.config ?? {};
  const isRefused = access !== undefined && isRefusal(statusCode);
  if (!audit && !isRefused) return undefined;
  const detail = request.auditDetail ?? {};
  const actorUserId = request.user?.userId ?? detail.actorUserId ?? null;
  return {
    actorUserId,
    // A NUL typed at a sign-in is kept visible as \u0000 (PostgreSQL refuses the character itself).
    actorName:
      actorUserId === null ? audit?.actorName?.(request)?.replaceAll('\0', '\\u0000').slice(0, 100) : undefined,
    action: audit ? (detail.action ?? audit.action) : 'access.refused',
    target: audit ? (detail.target ?? audit.target?.(request)) : loggablePath(request.url),
    outcome: outcomeOf(statusCode, access === 'public'),
    statusCode,
    address: request.ip,
    requestId: request.id,
    // Only what the change did: a refused or failed save changed nothing.
    ...(detail.changes && statusCode < 400 ? { changes: detail.changes } : {}),
  };
}

export interface AuditOptions {
  /** How long one address's refusals without a session are counted together (tests shorten it). */
  refusalWindowMs?: number;
}

/** Refusals without a session recorded one by one per address and window; past that, counted into one row. */
export const anonymousRefusalsRecorded = 10;
/** Addresses counted apart in one window; past that (a flood from many addresses) they share one count. */
const maxCountedAddresses = 10_000;
const manyAddresses = 'many addresses';

/**
 * Refusals of requests without a session, per address: the first few of a window each get
 * their row, the rest only a count, written as one row when the window ends (issue 20: a
 * script's 401s wrote 4,729 rows in 10 s). Each process counts its own.
 */
class AnonymousRefusals {
  private counts = new Map<string, { recorded: number; skipped: number; last?: AuditRecord }>();

  /** Whether this refusal gets its own row; if not, it is counted for the window's summary. */
  admit(record: AuditRecord): boolean {
    const isNew = !this.counts.has(record.address);
    const address = isNew && this.counts.size >= maxCountedAddresses ? manyAddresses : record.address;
    const count = this.counts.get(address) ?? { recorded: 0, skipped: 0 };
    this.counts.set(address, count);
    if (count.recorded < anonymousRefusalsRecorded) {
      count.recorded++;
      return true;
    }
    count.skipped++;
    count.last = record;
    return false;
  }

  /** One row per address with refusals not written, for the window that ends now. */
  takeSummaries(windowMs: number): AuditRecord[] {
    const summaries = [...this.counts].flatMap(([address, { skipped, last }]) =>
      last && skipped > 0
        ? [
            {
              ...last,
              address,
              target: `${skipped} more refused without a session within ${Math.round(windowMs / 1000)} s, the last ${last.target}`,
            },
          ]
        : [],
    );
    this.counts = new Map();
    return summaries;
  }
}

const isAnonymousRefusal = (record: AuditRecord) => record.actorUserId === null && record.action === 'access.refused';

/**
 * Writes one audit row after the answer has gone, so recording never slows or breaks it;
 * a failed write is logged. Refusals without a session are counted per address past the
 * first few (AnonymousRefusals). Writes still running are awaited when the server closes.
 */
export const auditPlugin = fp(async (app: FastifyInstance, options: AuditOptions) => {
  app.decorateRequest('auditDetail', null);
  const pending = new Set<Promise<void>>();
  const refusals = new AnonymousRefusals();
  const windowMs = options.refusalWindowMs ?? 60_000;

  const write = (record: AuditRecord, log: FastifyBaseLogger) => {
    const writing = recordAudit(app.db, record)
      .catch((error: unknown) => log.error({ err: error, action: record.action }, 'audit entry not written'))
      .finally(() => pending.delete(writing));
    pending.add(writing);
  };
  const writeSummaries = () => {
    for (const summary of refusals.takeSummaries(windowMs)) write(summary, app.log);
  };
  const timer = setInterval(writeSummaries, windowMs).unref();
  app.decorate('auditWritten', async () => {
    // Writes run side by side on the pool, so a later one can land first: wait for them all.
    await Promise.allSettled(pending);
  });

  app.addHook('onResponse', async (request, reply) => {
    const record = auditRecordFor(request, reply.statusCode);
    if (!record) return;
    if (isAnonymousRefusal(record) && !refusals.admit(record)) return;
    write(record, request.log);
  });

  app.addHook('onClose', async () => {
    clearInterval(timer);
    writeSummaries();
    await app.auditWritten();
  });
});
