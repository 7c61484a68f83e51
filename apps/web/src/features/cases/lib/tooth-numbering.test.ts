import { describe, expect, it } from 'vitest';
import { formatToothList, toothChartRows, toothDescription, toothLabel } from './tooth-numbering.ts';

describe('tooth numbering', () => {
  it('maps Universal to FDI quadrant by quadrant', () => {
    expect([1, 8, 9, 16, 17, 24, 25, 32].map((tooth) => toothLabel(tooth, 'FDI'))).toEqual([
      '18',
      '11',
      '21',
      '28',
      '38',
      '31',
      '41',
      '48',
    ]);
  });

  it('writes Palmer with the quadrant corner', () => {
    expect(toothLabel(1, 'Palmer')).toBe('8┘');
    expect(toothLabel(9, 'Palmer')).toBe('└1');
    expect(toothLabel(24, 'Palmer')).toBe('┌1');
    expect(toothLabel(30, 'Palmer')).toBe('6┐');
  });

  it('keeps Universal as it is and describes teeth in words', () => {
    expect(toothLabel(14, 'Universal')).toBe('14');
    expect(toothDescription(1)).toBe('Upper right 8 (tooth 1)');
    expect(toothDescription(19)).toBe('Lower left 6 (tooth 19)');
  });

  it('formats stored lists in the case system, N/A when empty', () => {
    expect(formatToothList('3, 14', 'FDI')).toBe('16, 26');
    expect(formatToothList('N/A', 'FDI')).toBe('N/A');
    expect(formatToothList('', 'Universal')).toBe('N/A');
  });

  it('lays the chart out as the spec says: 1-16 on top, 32-17 below', () => {
    expect(toothChartRows.upper.slice(0, 3)).toEqual([1, 2, 3]);
    expect(toothChartRows.lower.slice(0, 3)).toEqual([32, 31, 30]);
    expect(toothChartRows.lower.at(-1)).toBe(17);
  });
});
