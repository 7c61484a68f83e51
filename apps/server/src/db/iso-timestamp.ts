import { sql, type SQLWrapper } from 'drizzle-orm';

/** A timestamp column as the API answers it: UTC, milliseconds, `Z` (2026-11-22T09:30:00.000Z). */
export const isoTimestamp = (column: SQLWrapper) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
