import { afterEach, describe, expect, it } from 'vitest';
import { formatDateOnly, formatDateTime } from './format-date.ts';
import { formatDecimal, formatDegrees, formatMm, formatPercent, formatSigned } from './format-number.ts';
import { formatSize } from './format-size.ts';
import { i18n } from './i18n.ts';
import { browserTimeZone, setDisplayTimeZone } from './time-zone.ts';

const show = (locale: string) => i18n.loadAndActivate({ locale, messages: {} });

afterEach(() => {
  show('en');
  setDisplayTimeZone(browserTimeZone());
});

/** Every figure the helpers write, in the language shown. */
function figures() {
  setDisplayTimeZone('UTC');
  return {
    decimal: formatDecimal(0.92, 2),
    mm: formatMm(0.021, 3),
    degrees: formatDegrees(3.4, 1),
    signed: [formatSigned(-0.61, 2), formatSigned(0.52, 2), formatSigned(-0.001, 2)],
    percent: formatPercent(61.6),
    sizes: [formatSize(512), formatSize(70 * 1024), formatSize(12.4 * 1024 * 1024)],
    date: formatDateOnly('2000-03-05'),
    day: formatDateOnly('2026-03-05T23:30:00.000Z'),
    dateTime: formatDateTime('2026-03-05T23:30:00.000Z'),
  };
}

describe('figures in the language shown', () => {
  it("keeps the spec's English forms", () => {
    show('en');
    expect(figures()).toEqual({
      decimal: '0.92',
      mm: '0.021 mm',
      degrees: '3.4°',
      signed: ['−0.61', '+0.52', '0.00'],
      percent: '62%',
      sizes: ['512 B', '70 KB', '12.4 MB'],
      date: 'March 5, 2000',
      day: 'March 5, 2026',
      dateTime: 'March 5, 2026 11:30 PM',
    });
    expect(formatDateOnly(null)).toBe('N/A');
  });

  it('writes the pseudo-locale as English', () => {
    show('pseudo');
    expect(formatMm(0.92, 2)).toBe('0.92 mm');
    expect(formatDateTime('2026-03-05T23:30:00.000Z')).toBe('March 5, 2026 11:30 PM');
  });

  it('writes German with its decimal comma, its units and its dates', () => {
    show('de');
    expect(figures()).toEqual({
      decimal: '0,92',
      mm: '0,021 mm',
      degrees: '3,4°',
      signed: ['-0,61', '+0,52', '0,00'],
      percent: '62\u00a0%',
      sizes: ['512 Byte', '70 kB', '12,4 MB'],
      date: '5. März 2000',
      day: '5. März 2026',
      dateTime: '5. März 2026 um 23:30',
    });
  });

  it('writes Arabic units and dates in Arabic', () => {
    show('ar');
    const shown = figures();
    expect(shown.mm).toMatch(/^0[.٫]021 مم$|^٠٫٠٢١ مم$/);
    expect(shown.sizes[1]).toContain('كيلوبايت');
    expect(shown.date).toContain('مارس');
    expect(shown.dateTime).toContain('مارس');
    expect(shown.signed[2]).not.toMatch(/[+−-]/);
  });

  it('writes Chinese units and dates in Chinese', () => {
    show('zh-CN');
    expect(figures()).toEqual({
      decimal: '0.92',
      mm: '0.021毫米',
      degrees: '3.4°',
      signed: ['-0.61', '+0.52', '0.00'],
      percent: '62%',
      sizes: ['512 B', '70 kB', '12.4 MB'],
      date: '2000年3月5日',
      day: '2026年3月5日',
      dateTime: '2026年3月5日 23:30',
    });
  });
});
