import { intlLocale } from '../../lib/i18n.ts';

/**
 * Names as a list in the language shown. English is written here ("a and b", "a, b, and c"),
 * as Intl.ListFormat('en') writes them: its first use loads its locale data, 3 ms on a quiet
 * machine and up to 170 ms on a busy one, in the task that shows the scans
 * (docs/decisions/viewer-first-open.md). Other languages take Intl's, that cost included.
 */
export function listed(names: string[]): string {
  const locale = intlLocale();
  if (locale !== 'en') return new Intl.ListFormat(locale).format(names);
  if (names.length <= 2) return names.join(' and ');
  // eslint-disable-next-line lingui/no-unlocalized-strings -- English alone; other languages take Intl's above
  return `${names.slice(0, -1).join(', ')}, and ${names.at(-1)!}`;
}
