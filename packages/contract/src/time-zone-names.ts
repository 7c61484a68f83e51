/**
 * Time zone names without zod, so the signed-in shell checks the browser's zone without loading
 * the validation library (docs/decisions/speed.md § On the wire). lab-settings.ts re-exports it.
 */

/** A name the browser's and Node's Intl know as a time zone ('Europe/Berlin', 'UTC'). */
export function isTimeZone(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
