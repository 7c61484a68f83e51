import { t } from '@lingui/core/macro';
import {
  caseFieldItems as caseFieldItemsAs,
  caseOptions,
  orNotAvailable,
  type CaseDetailGroup,
  type CaseRow,
  type NumberingSystem,
} from '@portal/contract';
import { formatDateOnly } from '../../../../lib/format-date.ts';
import { serverText } from '../../../../lib/server-text.ts';
import type { DetailItem } from './detail-list.tsx';

/**
 * 'N/A', the contract's word for an empty value, in the language shown: a message of the web
 * app's own, as the contract's catalog extraction (lingui/contract-messages.ts) takes 'N/A' for
 * a code, not words.
 */
export const notAvailable = () => t`N/A`;

/** Values in the contract's words (its options, 'N/A'): shown in the language of the page; what was typed stays as typed. */
const contractOptions = new Set<string>(Object.values(caseOptions).flat());
const shownValue = (value: string) =>
  value === orNotAvailable(null) ? notAvailable() : contractOptions.has(value) ? serverText(value) : value;

/**
 * The rows of one part of the detail view, in the case field table's order, dates spelled out,
 * teeth in the reader's notation when given (docs/decisions/tooth-notation.md).
 */
export const caseFieldItems = (caseRow: CaseRow, group: CaseDetailGroup, notation?: NumberingSystem): DetailItem[] =>
  caseFieldItemsAs(caseRow, group, formatDateOnly, notation).map((item) => ({
    ...item,
    label: serverText(item.label),
    value: shownValue(item.value),
  }));

/** The case details: its tracking number, the doctor for staff, then step 1 of the form as read. */
export function caseDetailItems(caseRow: CaseRow, showDoctor: boolean, notation?: NumberingSystem): DetailItem[] {
  return [
    { label: t`Tracking No`, value: caseRow.TrackingNo },
    ...(showDoctor ? [{ label: t`Doctor`, value: shownValue(orNotAvailable(caseRow.doctorname)) }] : []),
    ...caseFieldItems(caseRow, 'details', notation),
  ];
}
