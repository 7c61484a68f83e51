import { badRequest } from './errors.ts';

export const nulMessage = 'Text must not contain the NUL character (\\u0000)';

/** The path (`clinicList.0.address`, `_` for the value itself) of the first string holding `\0`, if any. */
function findNul(value: unknown, path: string[] = [], depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? path.join('.') || '_' : undefined;
  if (value === null || typeof value !== 'object' || depth > 32 || Buffer.isBuffer(value)) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\0')) return [...path, key.replaceAll('\0', '\\u0000')].join('.');
    const found = findNul(item, [...path, key], depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * PostgreSQL refuses `\0` in text, so a NUL that reached a query was a 500. Every body, query
 * and path parameter is checked once (plugins/security.ts, and multipart fields in
 * lib/multipart-form.ts): a 400 naming the field.
 */
export function assertNoNul(...values: unknown[]): void {
  for (const value of values) {
    const field = findNul(value);
    if (field !== undefined) throw badRequest(nulMessage, { [field]: nulMessage });
  }
}
