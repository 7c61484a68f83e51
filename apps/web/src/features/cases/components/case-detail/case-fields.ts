import {
  caseFieldItems as caseFieldItemsAs,
  orNotAvailable,
  type CaseDetailGroup,
  type CaseRow,
} from '@portal/contract';
import { formatDateOnly } from '../../../../lib/format-date.ts';
import type { DetailItem } from './detail-list.tsx';

/** The rows of one part of the detail view, in the case field table's order, dates spelled out. */
export const caseFieldItems = (caseRow: CaseRow, group: CaseDetailGroup): DetailItem[] =>
  caseFieldItemsAs(caseRow, group, formatDateOnly);

/** The case details: its tracking number, the doctor for staff, then step 1 of the form as read. */
export function caseDetailItems(caseRow: CaseRow, showDoctor: boolean): DetailItem[] {
  return [
    { label: 'Tracking No', value: caseRow.TrackingNo },
    ...(showDoctor ? [{ label: 'Doctor', value: orNotAvailable(caseRow.doctorname) }] : []),
    ...caseFieldItems(caseRow, 'details'),
  ];
}
