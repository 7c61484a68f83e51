import {
  caseFieldItems,
  caseFieldList,
  caseFileTypeLabel,
  caseStatusLabels,
  defaultLocale,
  type CaseDetailGroup,
  type CaseDetailItem,
  type CaseRow,
  type CaseStatus,
  type Locale,
  type NumberingSystem,
} from '@portal/contract';
import { pdfMessages, type PdfMessage, type PdfMessageKey } from './pdf-messages.ts';
import { i18nFor } from '../../i18n/index.ts';

/**
 * The prescription's words in one language: its own messages (pdf-messages.ts), the case
 * fields' names and picked values, statuses, file kinds and dates. English is the spec's,
 * unchanged: the contract's labels and the portal's 'March 5, 2001'. Teeth are named in the
 * reader's notation when given (docs/decisions/tooth-notation.md), else the case's numbering.
 */
export interface PdfWords {
  locale: Locale;
  notation?: NumberingSystem;
  t(key: PdfMessageKey, values?: Record<string, string | number>): string;
  formatDate(value: string): string;
  fileSize(bytes: number): string;
  status(status: CaseStatus): string;
  fileType(fileType: string): string;
  items(caseRow: CaseRow, group: CaseDetailGroup): (CaseDetailItem & { key: string })[];
}

const months = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A picked value's message by its English words ('Class-I (if possible)' -> option.classOne). */
const optionKeys = new Map(
  (Object.entries(pdfMessages) as [PdfMessageKey, PdfMessage][])
    .filter(([key]) => key.startsWith('option.'))
    .map(([key, { message }]) => [message, key]),
);

const isKey = (key: string): key is PdfMessageKey => key in pdfMessages;

export function pdfWords(locale: Locale, notation?: NumberingSystem): PdfWords {
  // The server's catalogs (apps/server/src/i18n): the language's words over English's.
  const i18n = i18nFor(locale);
  const t = (key: PdfMessageKey, values?: Record<string, string | number>) => i18n._({ ...pdfMessages[key], values });
  const english = locale === defaultLocale;
  // Arabic with the digits of tooth numbers, phones and tracking numbers (Latin), the calendar Gregorian.
  const dates = new Intl.DateTimeFormat(locale === 'ar' ? 'ar-u-nu-latn' : locale, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
  const notAvailable = t('notAvailable');

  /** 'March 5, 2001' from '2001-03-05' or an ISO timestamp, read as the calendar date it names (UTC). */
  const formatDate = (value: string) => {
    const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
    if (!match) return value?.trim() ? value : notAvailable;
    if (english) return `${months[Number(match[2]) - 1]} ${Number(match[3])}, ${match[1]}`;
    return dates.format(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))));
  };
  const decimal = (value: number) =>
    english ? value.toFixed(1) : value.toLocaleString(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const shown = (value: string) => {
    if (english) return value;
    if (value === 'N/A') return notAvailable;
    const key = optionKeys.get(value);
    return key ? t(key) : value;
  };

  return {
    locale,
    notation,
    t,
    formatDate,
    fileSize: (bytes) =>
      bytes >= 1_000_000 ? `${decimal(bytes / 1_000_000)} MB` : `${Math.max(1, Math.round(bytes / 1000))} KB`,
    status: (status) => (english ? caseStatusLabels[status] : t(`status.${status}` as PdfMessageKey)),
    fileType: (fileType) => {
      const key = `fileType.${fileType}`;
      return english || !isKey(key) ? caseFileTypeLabel(fileType) : t(key);
    },
    items(caseRow, group) {
      // caseFieldItems gives one item per field of the group, in the table's order.
      const fields = caseFieldList.filter((field) => field.detail?.group === group);
      return caseFieldItems(caseRow, group, formatDate, notation).map((item, index) => {
        const key = `field.${fields[index]!.key}`;
        return {
          ...item,
          key: fields[index]!.key,
          label: english || !isKey(key) ? item.label : t(key),
          // Only a value picked from a list is the portal's words; typed text stays as typed.
          value: 'options' in fields[index]! || item.value === 'N/A' ? shown(item.value) : item.value,
        };
      });
    },
  };
}
