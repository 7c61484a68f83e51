import { defaultLocale } from '@portal/contract/locales';
import { intlLocale } from './i18n.ts';

/**
 * Figures as people read them in the language shown. English keeps the spec's own forms
 * byte for byte (`0.92 mm`, `3.4°`, `−0.61`, `62%`); the other languages get theirs from
 * `Intl` (decimal comma, the unit's name and place, the percent sign's spacing).
 */
export const isEnglish = () => intlLocale() === defaultLocale;

const formats = new Map<string, Intl.NumberFormat>();
function numberFormat(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const locale = intlLocale();
  const key = `${locale}:${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}

const fixed = (digits: number) => ({ minimumFractionDigits: digits, maximumFractionDigits: digits });

/** `0.92` with `digits` decimals (`0,92` in German). */
export const formatDecimal = (value: number, digits: number): string =>
  isEnglish() ? value.toFixed(digits) : numberFormat(fixed(digits)).format(value);

/**
 * A figure as JavaScript writes it in English (`0.25`, `14`: the lab's limits, a legend's
 * distances), as the language shown writes it otherwise (`0,25`).
 */
export const formatFigure = (value: number): string =>
  isEnglish() ? String(value) : numberFormat({ maximumFractionDigits: 20 }).format(value);

/** `0.92 mm` (`0,92 mm`, `0.92毫米`). */
export const formatMm = (value: number, digits: number): string =>
  isEnglish()
    ? `${value.toFixed(digits)} mm`
    : numberFormat({ style: 'unit', unit: 'millimeter', unitDisplay: 'short', ...fixed(digits) }).format(value);

/** `3.4°` (`3,4°`). */
export const formatDegrees = (value: number, digits: number): string =>
  isEnglish()
    ? `${value.toFixed(digits)}°`
    : numberFormat({ style: 'unit', unit: 'degree', unitDisplay: 'short', ...fixed(digits) }).format(value);

/**
 * '+0.25', '−1.3', '0.00': the sign of the figure as shown (as the movement table writes them):
 * none when it rounds to zero. English writes the minus sign (U+2212).
 */
export function formatSigned(value: number, digits: number): string {
  if (!isEnglish()) return numberFormat({ ...fixed(digits), signDisplay: 'exceptZero' }).format(value);
  const shown = Math.abs(value).toFixed(digits);
  return `${Number(shown) === 0 ? '' : value > 0 ? '+' : '−'}${shown}`;
}

/** `62%` from 62 (rounded to a whole percent; `62 %` in German). */
export const formatPercent = (percent: number): string =>
  isEnglish()
    ? `${Math.round(percent)}%`
    : numberFormat({ style: 'percent', maximumFractionDigits: 0 }).format(Math.round(percent) / 100);
