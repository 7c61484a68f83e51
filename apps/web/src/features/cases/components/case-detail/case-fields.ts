import {
  caseFieldList,
  caseFields,
  caseOptions,
  type CaseDetailGroup,
  type CaseFieldDetail,
  type CaseFieldEntry,
  type CaseFieldKey,
  type CaseRow,
} from '@portal/contract';
import { formatDateOnly } from '../../../../lib/format-date.ts';
import { formatToothList, type NumberingSystem } from '../../lib/tooth-numbering.ts';
import { orNotAvailable, type DetailItem } from './detail-list.tsx';

const numberingSystem = (value: string): NumberingSystem =>
  (caseOptions.toothNumbering as readonly string[]).includes(value) ? (value as NumberingSystem) : 'Universal';

/** A field's value as read: dates spelled out, teeth in the case's numbering system, empty as N/A. */
function shownValue(caseRow: CaseRow, field: CaseFieldEntry): string {
  const value = String(caseRow[field.read]);
  if (field.kind === 'date') return formatDateOnly(value);
  if (field.kind === 'teeth') return formatToothList(value, numberingSystem(caseRow[caseFields.toothNumbering.read]));
  return orNotAvailable(value);
}

/** The rows of one part of the detail view, in the case field table's order. */
export function caseFieldItems(caseRow: CaseRow, group: CaseDetailGroup): DetailItem[] {
  return caseFieldList.flatMap((field) => {
    const detail: CaseFieldDetail | null = field.detail;
    if (detail?.group !== group) return [];
    const label = detail.label ?? field.label;
    if (detail.joinedWith) {
      const joined = caseFields[detail.joinedWith as CaseFieldKey];
      return [{ label, value: orNotAvailable(`${caseRow[field.read]} ${caseRow[joined.read]}`) }];
    }
    return [{ label, value: shownValue(caseRow, field), isWide: detail.isWide }];
  });
}

/** The case details: its tracking number, the doctor for staff, then step 1 of the form as read. */
export function caseDetailItems(caseRow: CaseRow, showDoctor: boolean): DetailItem[] {
  return [
    { label: 'Tracking No', value: caseRow.TrackingNo },
    ...(showDoctor ? [{ label: 'Doctor', value: orNotAvailable(caseRow.doctorname) }] : []),
    ...caseFieldItems(caseRow, 'details'),
  ];
}
