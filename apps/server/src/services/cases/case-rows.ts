import {
  caseFieldList,
  caseSortColumns,
  caseStatuses,
  type CaseStatus,
  type TurnaroundTargets,
  type CaseFieldEntry,
  type CaseListQuery,
  type CaseRow,
  type CaseSortColumn,
  type CaseStatusFilter,
  type SortableCaseField,
} from '@portal/contract';
import { Column, eq, is, isNull, Placeholder, sql, type SQL } from 'drizzle-orm';
import { isoTimestamp } from '../../db/iso-timestamp.ts';
import { cases } from '../../db/schema.ts';
import { fullNameOf, fullNameById } from '../../db/user-names.ts';

/**
 * What a case row is read as, for one case (read-case.ts), a list (list-cases.ts) and a
 * search (search-cases.ts): its columns, its sorts, and the names of their statements.
 */

/**
 * Which cases a list or search reads: a doctor's (or every doctor's, null), in a status (or
 * all), and the lab's technician's (a UserId), the unassigned (null) or any (undefined).
 */
export interface CaseListScope {
  /** The doctors' UserIds (policy.ts caseOwnerScope), null for every doctor's. */
  doctorUserIds: readonly number[] | null;
  status: CaseStatusFilter;
  assigneeUserId?: number | null;
  /** Only cases past their status's turnaround target (overdueCutoffs). */
  overdue?: OverdueCutoffs;
  /** Only cases submitted from the start of `from` to the end of `to` (UTC days, ISO). */
  createdFrom?: string;
  createdBefore?: string;
  /** Only cases whose latest done progress scan has a tooth off track (cases.off_track). */
  offTrack?: boolean;
}

/** A submission date range's bounds: from the start of `from`, before the day after `to` (UTC). */
export function createdRange(query: { from?: string; to?: string }) {
  const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();
  return {
    ...(query.from && { createdFrom: `${query.from}T00:00:00.000Z` }),
    ...(query.to && { createdBefore: dayAfter(query.to) }),
  };
}

/**
 * Whose cases a statement reads: every doctor's, one doctor's (bound as `doctorUserId`, as a
 * doctor's own lists always are), or several doctors' (an assistant's, bound as the array
 * `doctorUserIds`; none when it is empty). See docs/decisions/assistants.md § Assistants.
 */
export type OwnerShape = 'all' | 'one' | 'several';

export const ownerShapeOf = (doctorUserIds: readonly number[] | null): OwnerShape =>
  doctorUserIds === null ? 'all' : doctorUserIds.length === 1 ? 'one' : 'several';

/** The values an owner shape's placeholders are bound to. */
export const ownerValues = (doctorUserIds: readonly number[] | null) =>
  doctorUserIds === null
    ? {}
    : doctorUserIds.length === 1
      ? { doctorUserId: doctorUserIds[0]! }
      : { doctorUserIds: `{${doctorUserIds.join(',')}}` };

/** The condition on a doctor's UserId column for an owner shape, on its placeholders. */
export function ownerFilter(column: Column | SQL, owners: OwnerShape): SQL | undefined {
  if (owners === 'all') return undefined;
  if (owners === 'one') return sql`${column} = ${sql.placeholder('doctorUserId')}`;
  return sql`${column} = any(${sql.placeholder('doctorUserIds')}::int[])`;
}

/** Which of a list's filters a request has: each a different statement (its flags name it). */
export interface FilterShape {
  hasStatus: boolean;
  hasPlanState: boolean;
  hasAssignee: boolean;
  isUnassigned: boolean;
  isOverdue: boolean;
  hasFrom: boolean;
  hasTo: boolean;
  isOffTrack: boolean;
}

export const filterShape = (scope: CaseListScope, query: CaseListQuery): FilterShape => ({
  hasStatus: scope.status !== 'all',
  hasPlanState: query.planState !== undefined,
  hasAssignee: typeof scope.assigneeUserId === 'number',
  isUnassigned: scope.assigneeUserId === null,
  isOverdue: scope.overdue !== undefined,
  hasFrom: scope.createdFrom !== undefined,
  hasTo: scope.createdBefore !== undefined,
  isOffTrack: scope.offTrack === true,
});

/** The filter flags in statement-name order. */
export const filterFlags = (shape: FilterShape) => [
  shape.hasStatus,
  shape.hasPlanState,
  shape.hasAssignee,
  shape.isUnassigned,
  shape.isOverdue,
  shape.hasFrom,
  shape.hasTo,
  shape.isOffTrack,
];

/** A list's or search's filter values: bound as they are, or placeholders of a prepared statement. */
export interface CaseFilterValues {
  status?: Exclude<CaseStatusFilter, 'all'> | Placeholder;
  planState?: NonNullable<CaseListQuery['planState']> | Placeholder;
  /** The technician's cases, or (null) the unassigned ones. */
  assigneeUserId?: number | Placeholder | null;
  /** Only cases past their status's turnaround target: the cutoffs, or their placeholders. */
  overdue?: Record<CaseStatus, string | null | Placeholder>;
  /** The submission date range's bounds (createdRange). */
  createdFrom?: string | Placeholder;
  createdBefore?: string | Placeholder;
  /**
   * Only the cases marked off track (a flag: no value to bind): through their partial index
   * (`index`, a list's pages and counts), or checked on the rows found otherwise (`rows`, a
   * search: its few matches, where the planner would AND the whole index's bitmap with them).
   */
  offTrack?: 'index' | 'rows';
}

/** The filters of a list or a search, each left out when its value is absent. */
export const caseFilters = ({
  status,
  planState,
  assigneeUserId,
  overdue,
  createdFrom,
  createdBefore,
  offTrack,
}: CaseFilterValues) => [
  status === undefined ? undefined : eq(cases.status, status),
  planState === undefined ? undefined : eq(cases.planState, planState),
  assigneeUserId === undefined
    ? undefined
    : assigneeUserId === null
      ? isNull(cases.assigneeUserId)
      : eq(cases.assigneeUserId, assigneeUserId),
  overdue === undefined ? undefined : overdueFilter(overdue),
  createdFrom === undefined ? undefined : sql`${cases.createdAt} >= ${createdFrom}::timestamptz`,
  createdBefore === undefined ? undefined : sql`${cases.createdAt} < ${createdBefore}::timestamptz`,
  // `index`: written as the partial index's predicate (cases_off_track_idx), so the planner can use it.
  offTrack === undefined ? undefined : offTrack === 'index' ? sql`${cases.offTrack}` : sql`${cases.offTrack} is true`,
];

/** A shape's filters as the placeholders of its prepared statement (the values bound by the same names). */
export const filterPlaceholders = (shape: FilterShape): CaseFilterValues => ({
  status: shape.hasStatus ? sql.placeholder('status') : undefined,
  planState: shape.hasPlanState ? sql.placeholder('planState') : undefined,
  assigneeUserId: shape.hasAssignee ? sql.placeholder('assigneeUserId') : shape.isUnassigned ? null : undefined,
  overdue: shape.isOverdue ? overduePlaceholders : undefined,
  createdFrom: shape.hasFrom ? sql.placeholder('createdFrom') : undefined,
  createdBefore: shape.hasTo ? sql.placeholder('createdBefore') : undefined,
  offTrack: shape.isOffTrack ? 'index' : undefined,
});

/** Per status, the ISO time a case that entered it before is overdue; null for a status without a target. */
export type OverdueCutoffs = Record<CaseStatus, string | null>;

/** The cutoffs of the lab's targets at `now` (docs/decisions/cases.md § Turnaround). */
export const overdueCutoffs = (targets: TurnaroundTargets, now = Date.now()): OverdueCutoffs =>
  Object.fromEntries(
    caseStatuses.map((status) => {
      const days = targets[status];
      return [status, days === undefined ? null : new Date(now - days * 86_400_000).toISOString()];
    }),
  ) as OverdueCutoffs;

/** The placeholders of the cutoffs in a prepared statement, and their values by name. */
const overduePlaceholders = Object.fromEntries(
  caseStatuses.map((status) => [status, sql.placeholder(`overdue_${status}`)]),
) as Record<CaseStatus, Placeholder>;
export const overdueValues = (cutoffs: OverdueCutoffs) =>
  Object.fromEntries(caseStatuses.map((status) => [`overdue_${status}`, cutoffs[status]]));

/**
 * Cases past their status's target: in a status since before its cutoff. A null cutoff (no
 * target) matches nothing; each status's clause is read from cases_status_changed_idx.
 */
const overdueFilter = (cutoffs: Record<CaseStatus, string | null | Placeholder>) =>
  sql`(${sql.join(
    caseStatuses.map(
      (status) => sql`(${cases.status} = ${status} and ${cases.statusChangedAt} < ${cutoffs[status]}::timestamptz)`,
    ),
    sql` or `,
  )})`;

/** doctorname: the doctor's first and last name (docs/decisions/api.md § Doctor names in case rows). */
export const doctorFullName = fullNameOf();

/** A field's column as read: a date as its 'YYYY-MM-DD' text. */
const answerColumn = (field: CaseFieldEntry) =>
  field.kind === 'date' ? sql<string>`${cases[field.key]}::text` : cases[field.key];

export const caseColumns = {
  CaseId: cases.caseId,
  TrackingNo: cases.trackingNo,
  ...Object.fromEntries(caseFieldList.map((field) => [field.read, answerColumn(field)])),
  doctorname: doctorFullName,
  Status: cases.status,
  CreatedAt: isoTimestamp(cases.createdAt),
  DoctorUserId: cases.doctorUserId,
  StatusChangedAt: isoTimestamp(cases.statusChangedAt),
  AssigneeUserId: cases.assigneeUserId,
  AssigneeName: fullNameById(cases.assigneeUserId),
  OffTrack: cases.offTrack,
};

const caseRowKeys = Object.keys(caseColumns);
// caseRowsOf takes the drivers' values as they come: no column may need drizzle's decoding
// (a boolean needs none: pg and PGlite both answer it as one).
for (const [key, field] of Object.entries(caseColumns) as [string, unknown][]) {
  if (is(field, Column) && !['string', 'number', 'boolean'].includes(field.dataType))
    throw new Error(`caseColumns.${key}: a ${field.dataType} column needs decoding; select it as text`);
}

/** Rows as arrays of `caseColumns`' values, in its order, as answer objects. */
export function caseRowsOf(rows: unknown[][]): CaseRow[] {
  return rows.map((row) => {
    const answer: Record<string, unknown> = {};
    for (const [index, key] of caseRowKeys.entries()) answer[key] = row[index];
    return answer as CaseRow;
  });
}

/** The column of `cases` each sort reads (doctorname reads the doctor's, through doctor_user_id). */
export const sortColumns: Record<CaseSortColumn, Column> = {
  CaseId: cases.caseId,
  TrackingNo: cases.trackingNo,
  ...(Object.fromEntries(
    caseFieldList
      .filter((field) => 'isSortable' in field && field.isSortable)
      .map((field): [string, Column] => [field.read, cases[field.key]]),
  ) as Record<SortableCaseField, Column>),
  doctorname: cases.doctorUserId,
  Status: cases.status,
  CreatedAt: cases.createdAt,
};

export const sortExpressions = Object.fromEntries(
  Object.entries(sortColumns).map(([sort, column]) => [sort, sort === 'doctorname' ? doctorFullName : sql`${column}`]),
) as Record<CaseSortColumn, SQL>;

/**
 * The page of a list written into its statement as numbers: the table's page sizes (5, 10,
 * 20) and first five pages, the pages nearly every request asks for. PostgreSQL keeps no
 * plan for `LIMIT $n OFFSET $m` (it cannot tell how many rows they are and plans the
 * generic case for a tenth of the table, so it plans each execution for its values: 0.3 ms
 * a page at a million cases against 0.1 ms for a kept plan), while a statement with numbers
 * is planned once per connection. Other pages bind LIMIT and OFFSET. This bounds the named
 * statements to 16 per shape.
 */
export function literalPage(pageSize: number, page: number) {
  if (![5, 10, 20].includes(pageSize) || page > 5) return undefined;
  return { limit: pageSize, offset: (page - 1) * pageSize };
}

/** A shape's part of a statement name: its flags, its sort's number and a page written in. */
export function shapeName(
  flags: boolean[],
  sort: NonNullable<CaseListQuery['sort']>,
  page?: { limit: number; offset: number },
) {
  const name = [...flags.map(Number), caseSortIndex.get(sort)!].join('_');
  return page ? `${name}_${page.limit}_${page.offset}` : name;
}

/** A sort's number in statement names (`-ImpressionType` and its kind would not fit PostgreSQL's 63 characters). */
const caseSortIndex = new Map(
  caseSortColumns.flatMap((column, index) => [
    [column, 2 * index] as const,
    [`-${column}` as const, 2 * index + 1] as const,
  ]),
);
