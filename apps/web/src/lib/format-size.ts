import { isEnglish } from './format-number.ts';
import { intlLocale } from './i18n.ts';

const unitFormat = (unit: 'byte' | 'kilobyte' | 'megabyte', digits: number) =>
  new Intl.NumberFormat(intlLocale(), {
    style: 'unit',
    unit,
    unitDisplay: 'short',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });

/**
 * A file size as people read it: `512 B`, `70 KB`, `12.4 MB` (in the language shown through
 * `Intl`: `12,4 MB`, `70 كيلوبايت`).
 */
export function formatSize(bytes: number): string {
  if (isEnglish()) {
    return bytes < 1024
      ? `${bytes} B`
      : bytes < 1024 * 1024
        ? `${Math.round(bytes / 1024)} KB`
        : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  }
  if (bytes < 1024) return unitFormat('byte', 0).format(bytes);
  if (bytes < 1024 * 1024) return unitFormat('kilobyte', 0).format(Math.round(bytes / 1024));
  return unitFormat('megabyte', 1).format(Number((bytes / 1024 / 1024).toFixed(1)));
}
