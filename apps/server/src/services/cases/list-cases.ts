import {
  defaultPageSize,
  type CaseListQuery,
  type CaseRow,
  type CaseSortColumn,
  type CaseStats,
} from '@portal/contract';
import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { caseCounts, caseStatusTotals, cases, users } from '../../db/schema.ts';
import { arrayRowStatement, preparedOnce } from '../../db/statements.ts';
import {
  caseColumns,
  caseRowsOf,
  filterFlags,
  filterShape,
  literalPage,
  caseFilters,
  filterPlaceholders,
  overdueValues,
  shapeName,
  sortExpressions,
  ownerFilter,
  ownerShapeOf,
  ownerValues,
  type CaseListScope,
  type FilterShape,
  type OwnerShape,
} from './case-rows.ts';
import { searchCases } from './search-cases.ts';

/** What a list's SQL depends on, without a search; the values are bound when it runs. */
interface ListShape extends FilterShape {
  owners: OwnerShape;
  sort: NonNullable<CaseListQuery['sort']>;
  /** A page written into the statement (literalPage), or none: LIMIT and OFFSET are bound. */
  page?: { limit: number; offset: number };
}

/** The values a list's prepared queries are run with (placeholders of the same names). */
type ListValues = {
  doctorUserId?: number;
  doctorUserIds?: string;
  status?: string;
  planState?: string;
  assigneeUserId?: number;
  createdFrom?: string;
  createdBefore?: string;
  limit: number;
  [overdueCutoff: `overdue_${string}`]: string | null | number | undefined;
  offset: number;
};

const placeholder = sql.placeholder;

/** The filters of a list's shape, on the values its statements are run with. */
const listFilters = (shape: ListShape) =>
  and(ownerFilter(cases.doctorUserId, shape.owners), ...caseFilters(filterPlaceholders(shape)));

/**
 * One shape's page query, built once and a named statement on PostgreSQL (parsed, and
 * planned once per connection when its page is written in, as the session lookup is).
 */
function preparePage(db: Database, shape: ListShape, name: string) {
  const isDescending = shape.sort.startsWith('-');
  const column = sortExpressions[shape.sort.replace(/^-/, '') as CaseSortColumn];
  const direction = isDescending ? desc : asc;
  const list = db
    .select(caseColumns)
    .from(cases)
    .innerJoin(users, eq(users.userId, cases.doctorUserId))
    .where(listFilters(shape))
    .orderBy(direction(column), direction(cases.caseId))
    .$dynamic();
  if (!shape.page) list.limit(placeholder('limit')).offset(placeholder('offset'));
  const query = list.toSQL();
  // After ORDER BY, the last clause drizzle wrote; the numbers are whole (literalPage).
  if (shape.page) query.sql += ` limit ${shape.page.limit} offset ${shape.page.offset}`;
  // Every column of a row is text or an integer, which both drivers answer as the API
  // does, so a row's values go into the answer as they come, named in the selection's
  // order: drizzle's own mapping of each of a row's 44 columns cost 6% of a list's CPU.
  return arrayRowStatement(db, name, query, caseRowsOf);
}

/** How many cases a list has: a plan-state, assignee, overdue, date or off-track filter's rows counted, otherwise read from the counters. */
function countQuery(db: Database, shape: ListShape, where: SQL | undefined) {
  if (
    shape.hasPlanState ||
    shape.hasAssignee ||
    shape.isUnassigned ||
    shape.isOverdue ||
    shape.hasFrom ||
    shape.hasTo ||
    shape.isOffTrack
  ) {
    return db
      .select({ total: sql<number>`count(*)::int` })
      .from(cases)
      .where(where);
  }
  const counter = counters(shape.owners);
  return db
    .select({ total: sql<number>`coalesce(sum(${counter.count}), 0)::int` })
    .from(counter.table)
    .where(and(counter.where, shape.hasStatus ? eq(counter.status, placeholder('status')) : undefined));
}

/** A shape's page statement and count statement (the count does not depend on the page). */
function preparedList(db: Database, shape: ListShape) {
  const flags = [shape.owners !== 'all', ...filterFlags(shape)];
  // An assistant's several doctors: statements of their own, the doctors' names unchanged.
  const owners = shape.owners === 'several' ? 'several_' : '';
  return {
    list: preparedOnce(db, `case_list_${owners}${shapeName(flags, shape.sort, shape.page)}`, (name) =>
      preparePage(db, shape, name),
    ),
    count: preparedOnce(db, `case_count_${owners}${shapeName(flags, shape.sort)}`, (name) =>
      countQuery(db, shape, listFilters(shape)).prepare(name),
    ),
  };
}

/** A list without a search: its prepared queries run with this request's values. */
async function findListPage(
  db: Database,
  scope: CaseListScope,
  query: CaseListQuery,
): Promise<{ rows: CaseRow[]; total: number }> {
  const shape: ListShape = {
    owners: ownerShapeOf(scope.doctorUserIds),
    ...filterShape(scope, query),
    sort: query.sort ?? '-CreatedAt',
  };
  // Always a page (docs/decisions/lists-and-search.md § Paging): a list is never sent whole.
  const pageSize = query.pageSize ?? defaultPageSize;
  shape.page = literalPage(pageSize, query.page ?? 1);
  const values: ListValues = {
    ...ownerValues(scope.doctorUserIds),
    status: shape.hasStatus ? scope.status : undefined,
    planState: query.planState,
    assigneeUserId: scope.assigneeUserId ?? undefined,
    ...(scope.overdue && overdueValues(scope.overdue)),
    createdFrom: scope.createdFrom,
    createdBefore: scope.createdBefore,
    limit: pageSize,
    offset: ((query.page ?? 1) - 1) * pageSize,
  };
  const { list, count } = preparedList(db, shape);
  const [rows, [counted]] = await Promise.all([list.execute(values), count.execute(values)]);
  return { rows, total: counted?.total ?? 0 };
}

/** The counters kept by trigger: the doctors' rows of case_counts, or over all doctors case_status_totals. */
function counters(owners: OwnerShape) {
  return owners === 'all'
    ? { table: caseStatusTotals, status: caseStatusTotals.status, count: caseStatusTotals.count, where: undefined }
    : {
        table: caseCounts,
        status: caseCounts.status,
        count: caseCounts.count,
        where: ownerFilter(caseCounts.doctorUserId, owners),
      };
}

/**
 * The stats tiles in one statement: the status counts from case_counts or case_status_totals
 * (kept by a trigger), never a scan of the cases, and the two plan tiles counted through
 * cases_plan_state_idx. Prepared once per scope (a doctor's, or all doctors'), so a request
 * costs the session lookup and one round trip of an already planned statement.
 */
function prepareStats(db: Database, owners: OwnerShape, name: string) {
  const counter = counters(owners);
  const count = (status?: string) =>
    status
      ? sql<number>`coalesce(sum(${counter.count}) filter (where ${counter.status} = ${status}), 0)::int`
      : sql<number>`coalesce(sum(${counter.count}), 0)::int`;
  const inPlanState = (state: 'awaiting_approval' | 'changes_requested') =>
    sql<number>`(select count(*)::int from ${cases} where ${and(
      eq(cases.planState, state),
      ownerFilter(cases.doctorUserId, owners),
    )})`;
  return db
    .select({
      newcases: count('new'),
      total: count(),
      inprogress: count('inprogress'),
      dispatched: count('dispatched'),
      delivered: count('delivered'),
      awaitingApproval: inPlanState('awaiting_approval'),
      changesRequested: inPlanState('changes_requested'),
    })
    .from(counter.table)
    .where(counter.where)
    .prepare(name);
}

export async function getCaseStats(db: Database, doctorUserIds: readonly number[] | null): Promise<CaseStats[]> {
  const owners = ownerShapeOf(doctorUserIds);
  const name = { all: 'case_stats_all', one: 'case_stats_doctor', several: 'case_stats_doctors' }[owners];
  return preparedOnce(db, name, (name) => prepareStats(db, owners, name)).execute(ownerValues(doctorUserIds));
}

/**
 * A case list: every row (no query, as the spec reads it) or one page, newest first unless
 * `sort` says otherwise, with the count of all matching rows.
 */
export async function findCases(
  db: Database,
  scope: CaseListScope,
  query: CaseListQuery,
): Promise<{ rows: CaseRow[]; total: number }> {
  return query.search === undefined ? findListPage(db, scope, query) : searchCases(db, scope, query, query.search);
}
