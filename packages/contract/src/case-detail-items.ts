import {
  caseFieldList,
  caseFields,
  caseOptions,
  type CaseDetailGroup,
  type CaseFieldDetail,
  type CaseFieldEntry,
  type CaseFieldKey,
} from './case-fields.ts';
import type { CaseRow } from './cases.ts';
import { formatToothList, type NumberingSystem } from './tooth-numbering.ts';

/** One labelled value of a case as read. */
export interface CaseDetailItem {
  label: string;
  value: string;
  isWide?: boolean;
}

/** Empty values read 'N/A' (docs/spec.md section 2). */
export const orNotAvailable = (value: string | null | undefined) => (value?.trim() ? value : 'N/A');

export const caseNumberingSystem = (value: string): NumberingSystem =>
  (caseOptions.toothNumbering as readonly string[]).includes(value) ? (value as NumberingSystem) : 'Universal';

/**
 * A field's value as read: dates by `formatDate`, teeth in the reader's notation when given
 * (docs/decisions/tooth-notation.md), else the case's numbering system, empty as N/A.
 */
function shownValue(
  caseRow: CaseRow,
  field: CaseFieldEntry,
  formatDate: (value: string) => string,
  notation?: NumberingSystem,
): string {
  const value = String(caseRow[field.read]);
  if (field.kind === 'date') return formatDate(value);
  if (field.kind === 'teeth')
    return formatToothList(value, notation ?? caseNumberingSystem(caseRow[caseFields.toothNumbering.read]));
  return orNotAvailable(value);
}

/**
 * The rows of one part of a case as read (the detail view, the printed prescription), in
 * the case field table's order.
 */
export function caseFieldItems(
  caseRow: CaseRow,
  group: CaseDetailGroup,
  formatDate: (value: string) => string,
  notation?: NumberingSystem,
): CaseDetailItem[] {
  return caseFieldList.flatMap((field) => {
    const detail: CaseFieldDetail | null = field.detail;
    if (detail?.group !== group) return [];
    const label = detail.label ?? field.label;
    if (detail.joinedWith) {
      const joined = caseFields[detail.joinedWith as CaseFieldKey];
      return [{ label, value: orNotAvailable(`${caseRow[field.read]} ${caseRow[joined.read]}`) }];
    }
    return [{ label, value: shownValue(caseRow, field, formatDate, notation), isWide: detail.isWide }];
  });
}
