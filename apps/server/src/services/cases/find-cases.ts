import {
  caseFieldList,
  type CaseAttachment,
  type CaseDetail,
  type CaseFieldEntry,
  type CaseListQuery,
  type CaseRow,
  type CaseSortColumn,
  type CaseStats,
  type CaseStatusFilter,
  type SortableCaseField,
} from '@portal/contract';
import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import { caseOwnerScope, type SignedInUser } from '../../auth/policy.ts';
import type { Database } from '../../db/client.ts';
import { isoTimestamp } from '../../db/iso-timestamp.ts';
import { caseAttachments, caseCounts, cases, users } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { findOrderParent, listCaseOrders } from './case-orders.ts';

const ownedBy = (doctorUserId: number | null) =>
  doctorUserId === null ? undefined : eq(cases.doctorUserId, doctorUserId);

/** doctorname: the doctor's first and last name (docs/decisions.md § Doctor names in case rows). */
const doctorFullName = sql<string>`(${users.firstName} || ' ' || ${users.lastName})`;

/** A field's column as read: a date as its 'YYYY-MM-DD' text. */
const answerColumn = (field: CaseFieldEntry) =>
  field.kind === 'date' ? sql<string>`${cases[field.key]}::text` : cases[field.key];

const caseColumns = {
  CaseId: cases.caseId,
  TrackingNo: cases.trackingNo,
  ...Object.fromEntries(caseFieldList.map((field) => [field.read, answerColumn(field)])),
  doctorname: doctorFullName,
  Status: cases.status,
  CreatedAt: isoTimestamp(cases.createdAt),
  DoctorUserId: cases.doctorUserId,
};

const sortExpressions: Record<CaseSortColumn, SQL> = {
  CaseId: sql`${cases.caseId}`,
  TrackingNo: sql`${cases.trackingNo}`,
  ...(Object.fromEntries(
    caseFieldList
      .filter((field) => 'isSortable' in field && field.isSortable)
      .map((field) => [field.read, sql`${cases[field.key]}`]),
  ) as Record<SortableCaseField, SQL>),
  doctorname: doctorFullName,
  Status: sql`${cases.status}`,
  CreatedAt: sql`${cases.createdAt}`,
};

/** ILIKE pattern for a substring, with the user's % _ and \ taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * Tracking number, patient name or doctor name, case-insensitively. Matches are collected
 * first through the trigram indexes on tracking numbers and patient names (0006) OR'd with
 * the doctor index (the names become an id list); OFFSET 0 keeps PostgreSQL from folding this into a newest-first scan of every case,
 * which is slow exactly when few cases match (measured on a million rows: ~10 ms vs 1.5 s).
 */
function matchesSearch(search: string): SQL {
  const pattern = containing(search);
  return sql`${cases.caseId} in (select x.case_id from cases x where x.tracking_no ilike ${pattern}
    or (x.first_name || ' ' || x.last_name) ilike ${pattern}
    or x.doctor_user_id = any(array(select u.user_id from users u where (u.first_name || ' ' || u.last_name) ilike ${pattern}))
    offset 0)`;
}

export function isPagedQuery(query: CaseListQuery): boolean {
  return (
    query.page !== undefined || query.pageSize !== undefined || query.search !== undefined || query.sort !== undefined
  );
}

/**
 * A case list: every row (no query, as the spec reads it) or one page, newest first unless
 * `sort` says otherwise, with the count of all matching rows.
 */
export async function findCases(
  db: Database,
  scope: { doctorUserId: number | null; status: CaseStatusFilter },
  query: CaseListQuery,
): Promise<{ rows: CaseRow[]; total: number }> {
  const where = and(
    ownedBy(scope.doctorUserId),
    scope.status === 'all' ? undefined : eq(cases.status, scope.status),
    query.search ? matchesSearch(query.search) : undefined,
    query.planState ? eq(cases.planState, query.planState) : undefined,
  );
  const sort = query.sort ?? '-CreatedAt';
  const isDescending = sort.startsWith('-');
  const column = sortExpressions[sort.replace(/^-/, '') as CaseSortColumn];
  const direction = isDescending ? desc : asc;
  const list = db
    .select(caseColumns)
    .from(cases)
    .innerJoin(users, eq(users.userId, cases.doctorUserId))
    .where(where)
    .orderBy(direction(column), direction(cases.caseId))
    .$dynamic();
  if (isPagedQuery(query)) {
    const pageSize = query.pageSize ?? 10;
    list.limit(pageSize).offset(((query.page ?? 1) - 1) * pageSize);
  }
  const [rows, total] = await Promise.all([
    list,
    countCases(db, scope, where, query.search !== undefined || query.planState !== undefined),
  ]);
  return { rows: rows as CaseRow[], total };
}

/**
 * Counts from case_counts (kept by a trigger), never a scan of the cases; the two plan tiles
 * count the cases in those plan states through cases_plan_state_idx.
 */
export async function getCaseStats(db: Database, doctorUserId: number | null): Promise<CaseStats[]> {
  const count = (status?: string) =>
    status
      ? sql<number>`coalesce(sum(${caseCounts.count}) filter (where ${caseCounts.status} = ${status}), 0)::int`
      : sql<number>`coalesce(sum(${caseCounts.count}), 0)::int`;
  const inPlanState = (state: 'awaiting_approval' | 'changes_requested') =>
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(cases)
      .where(and(eq(cases.planState, state), ownedBy(doctorUserId)))
      .then(([row]) => row?.n ?? 0);
  const [statusCounts, awaitingApproval, changesRequested] = await Promise.all([
    statusStats(db, doctorUserId, count),
    inPlanState('awaiting_approval'),
    inPlanState('changes_requested'),
  ]);
  return statusCounts.map((row) => ({ ...row, awaitingApproval, changesRequested }));
}

function statusStats(db: Database, doctorUserId: number | null, count: (status?: string) => SQL<number>) {
  return db
    .select({
      newcases: count('new'),
      total: count(),
      inprogress: count('inprogress'),
      dispatched: count('dispatched'),
      delivered: count('delivered'),
    })
    .from(caseCounts)
    .where(doctorUserId === null ? undefined : eq(caseCounts.doctorUserId, doctorUserId));
}

/** How many cases match; without a search or plan filter, read from case_counts instead of counting rows. */
async function countCases(
  db: Database,
  scope: { doctorUserId: number | null; status: CaseStatusFilter },
  where: SQL | undefined,
  isFiltered: boolean,
): Promise<number> {
  if (isFiltered) {
    const [counted] = await db
      .select({ total: sql<number>`count(*)::int` })
      .from(cases)
      .where(where);
    return counted?.total ?? 0;
  }
  const [counted] = await db
    .select({ total: sql<number>`coalesce(sum(${caseCounts.count}), 0)::int` })
    .from(caseCounts)
    .where(
      and(
        scope.doctorUserId === null ? undefined : eq(caseCounts.doctorUserId, scope.doctorUserId),
        scope.status === 'all' ? undefined : eq(caseCounts.status, scope.status),
      ),
    );
  return counted?.total ?? 0;
}

/** The case if the caller may see it; another doctor's case is 404, as if it did not exist. */
export async function findVisibleCase(db: Database, actor: SignedInUser, caseId: number) {
  const [found] = await db
    .select({
      caseId: cases.caseId,
      doctorUserId: cases.doctorUserId,
      status: cases.status,
      trackingNo: cases.trackingNo,
    })
    .from(cases)
    .where(and(eq(cases.caseId, caseId), ownedBy(caseOwnerScope(actor, 0))));
  if (!found) throw notFound('Case');
  return found;
}

/**
 * One case as the list rows show it, for its own page, with its newest plan version's state
 * (null before the first), the case it was ordered from and the orders made from it.
 */
export async function getCase(db: Database, actor: SignedInUser, caseId: number): Promise<CaseDetail> {
  const [found] = await db
    .select({ ...caseColumns, planState: cases.planState })
    .from(cases)
    .innerJoin(users, eq(users.userId, cases.doctorUserId))
    .where(and(eq(cases.caseId, caseId), ownedBy(caseOwnerScope(actor, 0))));
  if (!found) throw notFound('Case');
  const [parent, orders] = await Promise.all([findOrderParent(db, caseId), listCaseOrders(db, actor, caseId)]);
  return {
    ...(found as unknown as CaseRow),
    planState: found.planState,
    parentCaseId: parent?.caseId ?? null,
    parentTrackingNo: parent?.trackingNo ?? null,
    orderType: parent?.orderType ?? null,
    orders: orders.map(({ caseId, trackingNo, orderType, createdAt }) => ({
      caseId,
      trackingNo,
      orderType,
      createdAt,
    })),
  };
}

/** A case's files as listed: the attachment id stands where the answer has its download address. */
export type CaseAttachmentRow = Omit<CaseAttachment, 'FilePath'> & { attachmentId: number };

export async function listCaseAttachments(
  db: Database,
  actor: SignedInUser,
  caseId: number,
): Promise<CaseAttachmentRow[]> {
  await findVisibleCase(db, actor, caseId);
  const rows = await db
    .select({
      attachmentId: caseAttachments.attachmentId,
      FileName: caseAttachments.fileName,
      FileType: caseAttachments.fileType,
      FileSize: caseAttachments.fileSize,
      Sha256: caseAttachments.sha256,
    })
    .from(caseAttachments)
    .where(eq(caseAttachments.caseId, caseId))
    .orderBy(asc(caseAttachments.attachmentId));
  return rows.map((row) => ({ ...row, FileType: row.FileType as CaseAttachment['FileType'] }));
}
