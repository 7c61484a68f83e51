import { defaultPageSize, type AuditEntry, type AuditListQuery, type AuditOutcome } from '@portal/contract';
import { and, count, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';
import { auditLog, users } from '../db/schema.ts';
import { labelAuditTargets } from './audit-target-labels.ts';

export interface AuditRecord {
  actorUserId: number | null;
  /** Only when there is no signed-in user: the username typed at a sign-in. */
  actorName?: string;
  action: string;
  target?: string;
  outcome: AuditOutcome;
  statusCode: number;
  address: string;
  requestId: string;
  changes?: Record<string, { before: unknown; after: unknown }>;
}

/** One row; the actor's username is read in the same statement, as it is at this moment. */
export async function recordAudit(db: Database, record: AuditRecord): Promise<void> {
  const { actorName, ...row } = record;
  const currentName =
    actorName ?? sql`(select ${users.userName} from ${users} where ${users.userId} = ${record.actorUserId})`;
  await db.insert(auditLog).values({ ...row, actorName: currentName });
}

const entryColumns = {
  AuditId: auditLog.auditId,
  At: isoTimestamp(auditLog.at),
  UserId: auditLog.actorUserId,
  UserName: auditLog.actorName,
  Action: auditLog.action,
  Target: auditLog.target,
  Outcome: auditLog.outcome,
  StatusCode: auditLog.statusCode,
  Address: auditLog.address,
  RequestId: auditLog.requestId,
  Changes: auditLog.changes,
};

/** One page of the log, newest first, each target with its label, with the count of every matching entry. */
export async function findAuditEntries(
  db: Database,
  query: AuditListQuery,
): Promise<{ rows: AuditEntry[]; total: number }> {
  const where = and(
    query.action ? eq(auditLog.action, query.action) : undefined,
    query.actor ? eq(sql`lower(${auditLog.actorName})`, query.actor.toLowerCase()) : undefined,
    query.outcome ? eq(auditLog.outcome, query.outcome) : undefined,
    query.from ? gte(auditLog.at, new Date(query.from)) : undefined,
    query.to ? lt(auditLog.at, new Date(query.to)) : undefined,
  );
  const pageSize = query.pageSize ?? defaultPageSize;
  const [rows, [counted]] = await Promise.all([
    db
      .select(entryColumns)
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.at), desc(auditLog.auditId))
      .limit(pageSize)
      .offset(((query.page ?? 1) - 1) * pageSize),
    db.select({ total: count() }).from(auditLog).where(where),
  ]);
  const labels = await labelAuditTargets(
    db,
    rows.map((row) => row.Target),
  );
  return {
    rows: rows.map(({ Changes, ...row }, index) => ({
      ...row,
      TargetLabel: labels[index]!,
      ...(Changes ? { Changes } : {}),
    })),
    total: counted!.total,
  };
}
