import dayjs from 'dayjs';

/**
 * 'March 5, 2000' from a date-only '2000-03-05'. dayjs reads such a string as a local
 * calendar date (unlike `new Date`, which takes it as UTC midnight), so no day is lost.
 */
export function formatDateOnly(value: string | null | undefined): string {
  if (!value) return 'N/A';
  const date = dayjs(value.slice(0, 10));
  return date.isValid() ? date.format('MMMM D, YYYY') : value;
}

/** 'March 5, 2026 2:07 PM' in the browser's time zone, from an ISO timestamp. */
export function formatDateTime(value: string): string {
  const date = dayjs(value);
  return date.isValid() ? date.format('MMMM D, YYYY h:mm A') : value;
}
