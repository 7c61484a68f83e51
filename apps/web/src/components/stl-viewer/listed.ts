/**
 * Names in an English list ("a and b", "a, b, and c"), as Intl.ListFormat('en') writes them:
 * its first use loads its locale data, 3 ms on a quiet machine and up to 170 ms on a busy one,
 * in the task that shows the scans (docs/decisions/viewer-first-open.md).
 */
export function listed(names: string[]): string {
  if (names.length <= 2) return names.join(' and ');
  return `${names.slice(0, -1).join(', ')}, and ${names.at(-1)!}`;
}
