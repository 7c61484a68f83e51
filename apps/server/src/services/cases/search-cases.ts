import { defaultPageSize, type CaseListQuery, type CaseRow, type CaseSortColumn } from '@portal/contract';
import { and, asc, Column, desc, eq, getTableName, is, Placeholder, sql, Subquery, type SQL } from 'drizzle-orm';
import { keptPlans, type Database } from '../../db/client.ts';
import { cases, patientNames, users } from '../../db/schema.ts';
import { preparedOnce } from '../../db/statements.ts';
import {
  caseColumns,
  filterFlags,
  filterShape,
  literalPage,
  caseFilters,
  filterPlaceholders,
  overdueValues,
  ownerShapeOf,
  ownerValues,
  shapeName,
  sortColumns,
  sortExpressions,
  type CaseFilterValues,
  type CaseListScope,
  type FilterShape,
} from './case-rows.ts';

const placeholder = sql.placeholder;

/** ILIKE pattern for a substring, with the user's % _ and \ taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * A text as a search compares it: without accents and lowered (portal_fold, migration 0026),
 * so "brzeczy" finds "Brzęczy" (docs/decisions/lists-and-search.md § Accent-blind search). Two folded texts
 * are compared with LIKE, not ILIKE: both are lowered already, and ILIKE lowers each row's
 * text again (12% of a doctor's search at a million cases).
 */
const folded = (text: SQL | Placeholder | string) => sql`portal_fold(${text})`;

/**
 * The pattern folded once per query: in a prepared statement's generic plan `portal_fold($1)`
 * is a per-row expression, folded again for each of a doctor's few hundred cases (at a
 * million cases half a doctor's search's time), and for each case a staff-wide search's later
 * reads leave out (`not ... like`); a scalar subquery is an InitPlan, run once.
 */
const foldedOnce = (pattern: Placeholder | string) => sql`(select ${folded(pattern)})`;

/** A patient's "first last" name, folded as a search matches it (stored, indexed by cases_patient_name_trgm_idx). */
const patientFullName = sql`${cases.patientNameFolded}`;

/**
 * A staff-wide search's reads, in the order they take cases (searchMatches, topMatches): a
 * column among bound values (the doctors its words name, then the patient names), or a text
 * its pattern is found in (across first name and surname, then the tracking number). A read
 * with nothing to find (no doctor or patient name matched) is left out.
 */
type SearchRead =
  { column: Column; values: unknown[] | Placeholder; type: 'int' | 'text' } | { text: SQL; isFolded: boolean };

/** A text read's match: a folded name against the folded pattern, a tracking number (ASCII) as it is. */
const textMatches = (read: { text: SQL; isFolded: boolean }, pattern: string | Placeholder) =>
  read.isFolded ? sql`${read.text} like ${foldedOnce(pattern)}` : sql`${read.text} ilike ${pattern}`;

function staffSearchReads(search: SearchSql): SearchRead[] {
  const { names, doctorIds, hasNames, hasDoctors } = search.terms!;
  const reads: SearchRead[] = [];
  if (hasDoctors) reads.push({ column: cases.doctorUserId, values: doctorIds, type: 'int' });
  if (search.isAcrossNames) reads.push({ text: patientFullName, isFolded: true });
  else if (hasNames)
    reads.push(
      { column: cases.firstName, values: names, type: 'text' },
      { column: cases.lastName, values: names, type: 'text' },
    );
  reads.push({ text: sql`${cases.trackingNo}`, isFolded: false });
  return reads;
}

/**
 * The cases in scope that a search finds: tracking number, patient name or doctor name,
 * case-insensitively, as rows of `cases` with the columns `columns` names.
 *
 * For one doctor, that doctor's cases (a few hundred, by cases_doctor_created_idx) are
 * filtered: any index over all doctors would first collect every doctor's matches (at a
 * million cases: 55 ms vs 1 ms). OFFSET 0 keeps PostgreSQL from folding a subquery into a
 * newest-first scan of every case, which is slow exactly when few cases match.
 *
 * Over all doctors the matches are index reads, each case taken once, from the first that
 * finds it: the cases of the doctors the words name (findSearchTerms), then patients by
 * first name and by surname (the names the words match, through the name indexes, which
 * carry created_at, status, the doctor and the first name: 0013, 0014), then tracking
 * numbers through their trigram index (0002). A later read leaves out the earlier ones'
 * cases by `<> all` of the same doctors and names, bound as arrays (hashed when there are
 * many: preparedTermsLimit), so a common surname's ten thousand cases are counted and sorted
 * from index entries alone, and a read with nothing to find is left out. A search with a space in
 * it may run across first name and surname ("Anna Kowal"): that one reads the full names'
 * trigram index (0006), the cases it finds being few.
 */
function searchMatches(search: SearchSql, columns: Column[]) {
  const { pattern } = search;
  const filters = caseFilters(search);
  // Under the table's name, so that the columns of `cases` name these rows.
  const asCases = (query: SQL) => new Subquery(query, { caseId: cases.caseId }, getTableName(cases));
  const ownedBy = ownedCondition(search);
  if (ownedBy) {
    const found = and(
      sql`(${cases.trackingNo} ilike ${pattern} or ${patientFullName} like ${foldedOnce(pattern)}
        or ${cases.doctorUserId} = any(array(${usersNamed(pattern, ownedBy(sql`u.user_id`))})))`,
      ...filters,
    );
    const owned = sql`(select * from ${cases} where ${ownedBy(cases.doctorUserId)} offset 0) as ${cases}`;
    return asCases(sql`select * from ${owned} where ${found} offset 0`);
  }
  // Each read: what it finds, and how a later read leaves its cases out.
  const reads = staffSearchReads(search).map((read) =>
    'values' in read
      ? oneOf(read.column, read.values, read.type)
      : { found: textMatches(read, pattern), left: sql`not ${textMatches(read, pattern)}` },
  );
  // Each read leaves out what the reads before it found: UNION ALL, nothing to deduplicate.
  const branches = reads.map(({ found }, index) => {
    const notFoundBefore = reads.slice(0, index).map((earlier) => earlier.left);
    return sql`select ${sql.join(columns, sql`, `)} from ${cases} where ${and(found, ...notFoundBefore, ...filters)}`;
  });
  return asCases(sql.join(branches, sql` union all `));
}

/** Values bound as one array of `type`. */
const boundArray = (values: unknown[] | Placeholder, type: 'int' | 'text') =>
  sql`${is(values, Placeholder) ? values : sql.param(values)}::${sql.raw(type)}[]`;

/** A column among values bound as one array (`= any`), and the rows whose column is none of them (`<> all`). */
function oneOf(column: Column, values: unknown[] | Placeholder, type: 'int' | 'text') {
  const array = boundArray(values, type);
  return { found: sql`${column} = any(${array})`, left: sql`${column} <> all(${array})` };
}

/**
 * The cases a staff-wide search's page can come from when it is sorted by date: each read's
 * first `depth` cases (the page's offset and size) in created_at order, `direction` first,
 * taken together, each case once. A case on the page is among the first `depth` of every read
 * that finds it, so the page of these is the page of all matches. The name and doctor reads
 * go name by name (and doctor by doctor) down the indexes that start with the name and
 * created_at (0015) or the doctor and created_at (0002), `depth` entries each: a common
 * surname's page reads ten entries, not its 8,423 cases sorted. The tracking-number and
 * full-name reads collect their matches through their trigram indexes first (OFFSET 0), then
 * take their first: without the fence a plan made for any words may walk every case in date
 * order looking for them.
 */
function topMatches(search: SearchSql, direction: 'asc' | 'desc', depth: SQL) {
  const filters = caseFilters(search);
  const order = sql.raw(`created_at ${direction}, case_id ${direction}`);
  const first = (from: SQL) => sql`(select case_id, created_at from ${from} order by ${order} limit ${depth})`;
  const matching = (found: SQL) => sql`${cases} where ${and(found, ...filters)}`;
  // The first cases of each value, through the index that starts with `column`.
  const perValue = (column: Column, values: unknown[] | Placeholder, type: 'int' | 'text') =>
    sql`(select t.case_id, t.created_at from unnest(${boundArray(values, type)}) as v(value)
      cross join lateral ${first(matching(sql`${column} = v.value`))} as t)`;
  const collected = (found: SQL) => first(sql`(select case_id, created_at from ${matching(found)} offset 0) as c`);
  const reads = staffSearchReads(search).map((read) =>
    'values' in read ? perValue(read.column, read.values, read.type) : collected(textMatches(read, search.pattern)),
  );
  return sql.join(reads, sql` union `);
}

/** The users whose full name matches, within `scope`, accents aside (a few thousand users: no index needed). */
const usersNamed = (pattern: string | Placeholder, scope: SQL) => sql`select u.user_id from users u
  where ${scope} and ${folded(sql`u.first_name || ' ' || u.last_name`)} like ${foldedOnce(pattern)}`;

/** What a staff-wide search's words name before any case is read: patient names and users. */
interface SearchTerms {
  /** The distinct patient names that match (patient_names: a few thousand rows, a trigram index). */
  names: string[];
  /** The users whose full name matches (their cases are the doctor read's). */
  doctorIds: number[];
}

/**
 * The names and doctors a staff-wide search's words match, looked up first (0.1-0.3 ms) so
 * that the search itself binds them as arrays and leaves out the reads that find nothing.
 * A named statement, built once, planned once (keptPlans): its generic plan reads the two
 * trigram indexes, while on the ordinary connections PostgreSQL kept planning it for each
 * pattern (the folded pattern made the generic plan's estimate dearer), which cost a staff
 * search a sixth of its rate (docs/benchmarks.md § Lists, 1,000,000 cases).
 */
async function findSearchTerms(db: Database, pattern: string): Promise<SearchTerms> {
  const terms = preparedOnce(db, 'case_search_terms', (name) => {
    const pattern = placeholder('pattern');
    const namesMatching = sql`select ${patientNames.name} from ${patientNames}
      where ${folded(sql`${patientNames.name}`)} like ${folded(pattern)}`;
    return keptPlans(db)
      .select({
        names: sql<string[]>`array(${namesMatching})`,
        doctorIds: sql<number[]>`array(${usersNamed(pattern, sql`true`)})`,
      })
      .from(sql`(select) as terms`)
      .prepare(name);
  });
  const [found] = await terms.execute({ pattern });
  return found!;
}

/** A search's SQL values: bound as they are, or placeholders of a prepared statement. */
interface SearchSql extends CaseFilterValues {
  pattern: string | Placeholder;
  /** One doctor's cases (a doctor's own), or several doctors' as an int[] literal (an assistant's). */
  doctorUserId?: number | Placeholder;
  doctorUserIds?: string | Placeholder;
  /** A search with a space in it may run across first name and surname (staff only). */
  isAcrossNames: boolean;
  /** A staff-wide search's names and doctors (findSearchTerms); a doctor's search has none. */
  terms?: {
    names: string[] | Placeholder;
    doctorIds: number[] | Placeholder;
    /** Whether the names and doctors read anything: a read that finds nothing is left out. */
    hasNames: boolean;
    hasDoctors: boolean;
  };
}

/** The condition on a doctor's UserId column of a search in some doctors' cases; none over all doctors'. */
function ownedCondition({ doctorUserId, doctorUserIds }: SearchSql) {
  if (doctorUserId !== undefined) return (column: Column | SQL) => sql`${column} = ${doctorUserId}`;
  if (doctorUserIds !== undefined) return (column: Column | SQL) => sql`${column} = any(${doctorUserIds}::int[])`;
  return undefined;
}

/** What a search's SQL depends on besides its values. */
interface SearchShape extends FilterShape {
  sort: NonNullable<CaseListQuery['sort']>;
  isOwned: boolean;
  /** Owned by several doctors (an assistant's), bound as `doctorUserIds`. */
  isShared: boolean;
  isAcrossNames: boolean;
  /** Over all doctors: whether any patient name and any doctor matched (findSearchTerms). */
  hasNames?: boolean;
  hasDoctors?: boolean;
  /** Over all doctors, sorted by date and no deeper than topMatchesDepth: the page is read by topMatches. */
  isTopByDate?: boolean;
  /** A page written into a prepared search (literalPage), or none: LIMIT and OFFSET are bound. */
  page?: { limit: number; offset: number };
}

/** A page's LIMIT or OFFSET: a number written in (literalPage), a placeholder bound. */
const pageSql = (value: number | Placeholder) => (typeof value === 'number' ? sql.raw(String(value)) : sql`${value}`);

/** How many matches in sort order a page needs: its offset and its size. */
const pageDepth = ({ limit, offset }: { limit: number | Placeholder; offset: number | Placeholder }) =>
  typeof limit === 'number' && typeof offset === 'number'
    ? sql.raw(String(limit + offset))
    : sql`(${pageSql(limit)}::int + ${pageSql(offset)}::int)`;

/**
 * The deepest page a date-sorted staff-wide search reads through topMatches (its offset and
 * size): deeper, its reads would take more entries per name than sorting a common name's cases.
 */
const topMatchesDepth = 200;

/**
 * One page of a search's matches, newest first unless `sort` says otherwise, each row with
 * the count of all matches ("searchTotal"). The matches are sorted on their id and sort key
 * only, then the page's rows are read whole: only a page of rows is carried at full width.
 * The sort key is fenced (OFFSET 0) from the LIMIT: PostgreSQL would otherwise walk the
 * doctors in name order through every match for each (seconds at a million cases). A
 * staff-wide search sorted by date, as the dashboard's is, sorts only each read's first
 * cases instead (topMatches): a common surname's page at a million cases 0.07 ms against
 * 3.9 ms sorting its 8,423.
 *
 * A doctor's matches (a few of their few hundred cases) are counted as they are sorted
 * (`count(*) over ()`). A staff-wide search's are counted by reading them again: for
 * thousands of matches that second read of index entries costs less than the window, which
 * stores every match before it answers (at a million cases, 8,423 matches: 0.6 ms against
 * 2.0 ms).
 */
function searchPage(
  db: Database,
  shape: SearchShape,
  search: SearchSql,
  page: { limit: number | Placeholder; offset: number | Placeholder },
) {
  const sortColumn = shape.sort.replace(/^-/, '') as CaseSortColumn;
  const column = sortExpressions[sortColumn];
  const direction = shape.sort.startsWith('-') ? desc : asc;
  // A search's rows are already in scope: they stand in for the table, under its name.
  const matches = searchMatches(search, [...new Set([cases.caseId, sortColumns[sortColumn]])]);
  // A doctor's matches carry their count from the window; a staff-wide search reads them again.
  const windowTotal = (expression: SQL<number>): Record<string, SQL.Aliased<number>> =>
    shape.isOwned ? { searchTotal: expression.as('search_total') } : {};
  const matched = db
    .select({
      caseId: cases.caseId,
      sortKey: sql`${column}`.as('sort_key'),
      ...windowTotal(sql<number>`(count(*) over ())::int`),
    })
    .from(matches)
    .$dynamic();
  if (sortColumn === 'doctorname') matched.innerJoin(users, eq(users.userId, cases.doctorUserId));
  const ranked = new Subquery(
    shape.isTopByDate
      ? sql`select m.case_id, m.created_at as sort_key
          from (${topMatches(search, shape.sort.startsWith('-') ? 'desc' : 'asc', pageDepth(page))}) as m`
      : sql`${matched} offset 0`,
    { caseId: cases.caseId },
    'ranked',
  );
  const pageIds = db
    .select({
      caseId: sql<number>`ranked.case_id`.as('case_id'),
      ...windowTotal(sql<number>`ranked.search_total`),
    })
    .from(ranked)
    .orderBy(direction(sql`ranked.sort_key`), direction(sql`ranked.case_id`));
  const pageRows = new Subquery(
    sql`${pageIds} limit ${pageSql(page.limit)} offset ${pageSql(page.offset)}`,
    { caseId: cases.caseId },
    'page',
  );
  const searchTotal = shape.isOwned
    ? sql<number>`page.search_total`
    : sql<number>`(select count(*)::int from ${searchMatches(search, [cases.caseId])})`;
  return db
    .select({ ...caseColumns, searchTotal })
    .from(pageRows)
    .innerJoin(cases, sql`${cases.caseId} = page.case_id`)
    .innerJoin(users, eq(users.userId, cases.doctorUserId))
    .orderBy(direction(column), direction(cases.caseId));
}

/**
 * A search as a named statement, its words bound: its plan is the same whatever they are. In
 * one doctor's cases, their few hundred are read by cases_doctor_created_idx, then filtered.
 * Over all doctors, the reads its words leave in (shape.hasNames, hasDoctors) with the
 * matched names and doctors bound as arrays, so that drizzle builds the statement once and
 * PostgreSQL plans it once per connection: building, sending and planning a statement of
 * this size on every request cost more than running it (a rare name: about 3 ms a request
 * against 0.3 ms to run).
 */
function prepareSearch(db: Database, shape: SearchShape, name: string) {
  const search: SearchSql = {
    pattern: placeholder('pattern'),
    doctorUserId: shape.isOwned && !shape.isShared ? placeholder('doctorUserId') : undefined,
    doctorUserIds: shape.isShared ? placeholder('doctorUserIds') : undefined,
    ...filterPlaceholders(shape),
    offTrack: shape.isOffTrack ? 'rows' : undefined,
    isAcrossNames: shape.isAcrossNames,
    terms: shape.isOwned
      ? undefined
      : {
          names: placeholder('names'),
          doctorIds: placeholder('doctorIds'),
          hasNames: shape.hasNames ?? false,
          hasDoctors: shape.hasDoctors ?? false,
        },
  };
  const page = shape.page ?? { limit: placeholder('limit'), offset: placeholder('offset') };
  return searchPage(db, shape, search, page).prepare(name);
}

function preparedSearch(db: Database, shape: SearchShape) {
  const flags = shape.isOwned
    ? filterFlags(shape)
    : [
        ...filterFlags(shape),
        shape.isAcrossNames,
        shape.hasNames ?? false,
        shape.hasDoctors ?? false,
        shape.isTopByDate ?? false,
      ];
  const name = `case_search_${shape.isShared ? 'shared' : shape.isOwned ? 'own' : 'all'}_${shapeName(flags, shape.sort, shape.page)}`;
  // A doctor's search is planned once by PostgreSQL's own choice; a staff-wide one, whose
  // bound names and doctors sway the estimates, would be planned at every execution.
  return preparedOnce(db, name, (name) => prepareSearch(shape.isOwned ? db : keptPlans(db), shape, name));
}

/**
 * More names or doctors than this and a staff-wide search is planned for its words instead:
 * PostgreSQL hashes an array it is given as a value (`<> all` then costs one lookup a row),
 * not one bound to a kept plan, where a 2-letter search's thousand names would be compared
 * one by one on every row.
 */
const preparedTermsLimit = 32;

/** A page of the cases in scope that the search `words` find (searchMatches), with the count of all of them. */
export async function searchCases(
  db: Database,
  scope: CaseListScope,
  query: CaseListQuery,
  words: string,
): Promise<{ rows: CaseRow[]; total: number }> {
  const shape: SearchShape = {
    sort: query.sort ?? '-CreatedAt',
    isOwned: scope.doctorUserIds !== null,
    isShared: ownerShapeOf(scope.doctorUserIds) === 'several',
    ...filterShape(scope, query),
    isAcrossNames: scope.doctorUserIds === null && words.includes(' '),
  };
  const search: SearchSql = {
    pattern: containing(words),
    ...ownerValues(scope.doctorUserIds),
    status: scope.status === 'all' ? undefined : scope.status,
    planState: query.planState,
    assigneeUserId: scope.assigneeUserId,
    overdue: scope.overdue,
    createdFrom: scope.createdFrom,
    createdBefore: scope.createdBefore,
    offTrack: scope.offTrack ? 'rows' : undefined,
    isAcrossNames: shape.isAcrossNames,
  };
  const pageSize = query.pageSize ?? defaultPageSize;
  const page = { limit: pageSize, offset: ((query.page ?? 1) - 1) * pageSize };
  let isPrepared = true;
  if (!shape.isOwned) {
    const { names, doctorIds } = await findSearchTerms(db, search.pattern as string);
    shape.hasNames = names.length > 0;
    shape.hasDoctors = doctorIds.length > 0;
    search.terms = { names, doctorIds, hasNames: shape.hasNames, hasDoctors: shape.hasDoctors };
    isPrepared = names.length <= preparedTermsLimit && doctorIds.length <= preparedTermsLimit;
    shape.isTopByDate = /^-?CreatedAt$/.test(shape.sort) && page.offset + page.limit <= topMatchesDepth;
  }
  if (isPrepared) shape.page = literalPage(pageSize, query.page ?? 1);
  const found = isPrepared
    ? await preparedSearch(db, shape).execute({
        ...search,
        ...search.terms,
        ...(scope.overdue && overdueValues(scope.overdue)),
        ...page,
      })
    : await searchPage(db, shape, search, page);
  // A page past the last match has no row to carry the total: it is counted on its own.
  const total = found[0]?.searchTotal ?? (page.offset > 0 ? await countMatches(db, search) : 0);
  return { rows: found.map(({ searchTotal: _total, ...row }) => row) as CaseRow[], total };
}

/** How many cases a search matches, counted as found (without reading the cases again). */
async function countMatches(db: Database, search: SearchSql): Promise<number> {
  const [counted] = await db.select({ total: sql<number>`count(*)::int` }).from(searchMatches(search, [cases.caseId]));
  return counted?.total ?? 0;
}
