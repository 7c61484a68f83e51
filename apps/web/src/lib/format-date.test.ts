import { afterEach, describe, expect, it } from 'vitest';
import { formatDateOnly, formatDateTime } from './format-date.ts';
import { browserTimeZone, setDisplayTimeZone } from './time-zone.ts';

afterEach(() => setDisplayTimeZone(browserTimeZone()));

describe("times in the user's time zone", () => {
  it('shows a moment in the zone set, a calendar date as it is', () => {
    const at = '2026-03-05T23:30:00.000Z';
    setDisplayTimeZone('UTC');
    expect(formatDateTime(at)).toBe('March 5, 2026 11:30 PM');
    setDisplayTimeZone('Asia/Tokyo');
    expect(formatDateTime(at)).toBe('March 6, 2026 8:30 AM');
    expect(formatDateOnly(at)).toBe('March 6, 2026');
    setDisplayTimeZone('America/New_York');
    expect(formatDateTime(at)).toBe('March 5, 2026 6:30 PM');
    // A date of birth is the same day wherever the reader is.
    expect(formatDateOnly('2000-03-05')).toBe('March 5, 2000');
    expect(formatDateTime('not a date')).toBe('not a date');
  });
});
