import type { AuditAction, AuditOutcome } from '@portal/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
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
export interface AuditDetail {
  target?: string;
  actorUserId?: number;
  action?: AuditAction;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    audit?: AuditConfig;
  }
  interface FastifyRequest {
    auditDetail: AuditDetail | null;
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
  };
}

/**
 * Writes one audit row after the answer has gone, so recording never slows or breaks it;
 * a failed write is logged. Writes still running are awaited when the server closes.
 */
export const auditPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('auditDetail', null);
  const pending = new Set<Promise<void>>();

  app.addHook('onResponse', async (request, reply) => {
    const record = auditRecordFor(request, reply.statusCode);
    if (!record) return;
    const write = recordAudit(app.db, record)
      .catch((error: unknown) => request.log.error({ err: error, action: record.action }, 'audit entry not written'))
      .finally(() => pending.delete(write));
    pending.add(write);
  });

  app.addHook('onClose', async () => {
    await Promise.allSettled(pending);
  });
});
