import { msg } from '@lingui/core/macro';
import dayjs from 'dayjs';
import { isEnglish } from './format-number.ts';
import { i18n, intlLocale } from './i18n.ts';
import { displayTimeZone } from './time-zone.ts';

/** The parts of `value` in the user's time zone (lib/time-zone.ts), by their type. */
export function partsInZone(value: string | Date, options: Intl.DateTimeFormatOptions): Record<string, string> {
  const parts = new Intl.DateTimeFormat('en-US', { ...options, timeZone: displayTimeZone() }).formatToParts(
    new Date(value),
  );
  return Object.fromEntries(parts.map((part) => [part.type, part.value]));
}

const isTimestamp = (value: string) => value.length > 10 && !Number.isNaN(Date.parse(value));

/** `value` in the language shown, as `Intl` writes it there (`5. März 2026`, `2026年3月5日`). */
const inLocale = (value: Date, options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat(intlLocale(), options).format(value);

/**
 * 'March 5, 2000' from a date-only '2000-03-05'. dayjs reads such a string as a local
 * calendar date (unlike `new Date`, which takes it as UTC midnight), so no day is lost. A full
 * timestamp gives its day in the user's time zone. Other languages write the same day their way.
 */
export function formatDateOnly(value: string | null | undefined): string {
  if (!value) return i18n._(msg`N/A`);
  if (isTimestamp(value)) {
    if (!isEnglish()) return inLocale(new Date(value), { dateStyle: 'long', timeZone: displayTimeZone() });
    const { month, day, year } = partsInZone(value, { year: 'numeric', month: 'long', day: 'numeric' });
    return `${month} ${day}, ${year}`;
  }
  const date = dayjs(value.slice(0, 10));
  if (!date.isValid()) return value;
  if (!isEnglish()) {
    // The calendar date as it is: read at UTC midnight, written in UTC.
    return inLocale(new Date(Date.UTC(date.year(), date.month(), date.date())), { dateStyle: 'long', timeZone: 'UTC' });
  }
  return date.format('MMMM D, YYYY');
}

/** 'March 5, 2026 2:07 PM' in the user's time zone, from an ISO timestamp (other languages: their long date and short time). */
export function formatDateTime(value: string): string {
  if (Number.isNaN(Date.parse(value))) return value;
  if (!isEnglish()) {
    return inLocale(new Date(value), { dateStyle: 'long', timeStyle: 'short', timeZone: displayTimeZone() });
  }
  const { month, day, year, hour, minute, dayPeriod } = partsInZone(value, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
  });
  return `${month} ${day}, ${year} ${hour}:${minute} ${dayPeriod}`;
}
