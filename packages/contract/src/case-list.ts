/**
 * The case list's plain values (page sizes, sort columns, the assignee filter): no zod, so the
 * dashboard reads them without loading the validation library and the case schemas
 * (docs/decisions/speed.md § On the wire). cases.ts re-exports them and builds the list's query
 * schema on them, so there is still one source for each.
 */
import type { CaseRow } from './cases.ts';

/** The case fields a list may be sorted by: those case-fields.ts marks `isSortable` (a test checks both agree). */
export const sortableCaseFieldColumns = [
  'FirstName',
  'LastName',
  'DOB',
  'Gender',
  'ArchesToTreat',
  'NatureOfPatient',
  'ImpressionType',
] as const;

/** Columns a list may be sorted by: `sort=TrackingNo` ascending, `sort=-CreatedAt` descending. */
export const caseSortColumns = [
  'CaseId',
  'TrackingNo',
  ...sortableCaseFieldColumns,
  'doctorname',
  'Status',
  'CreatedAt',
] as const satisfies readonly (keyof CaseRow)[];
export type CaseSortColumn = (typeof caseSortColumns)[number];

/**
 * The case list and the audit log always answer one page (docs/decisions/lists-and-search.md § Paging): the
 * spec's tables show 10 rows by default and offer at most 30 (spec.md section 9).
 */
export const defaultPageSize = 10;
export const maxPageSize = 30;

export const caseAssigneeFilters = ['mine', 'unassigned'] as const;
export type CaseAssigneeFilter = (typeof caseAssigneeFilters)[number];
