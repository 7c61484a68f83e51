import { describe, expect, it } from 'vitest';
import { parseTeeth } from './teeth.ts';

describe('parseTeeth', () => {
  it('reads FDI numbers separated by commas, spaces or semicolons', () => {
    expect(parseTeeth('13, 23 33;43')).toEqual([13, 23, 33, 43]);
    expect(parseTeeth('  ')).toEqual([]);
  });

  it('refuses anything but whole numbers', () => {
    expect(parseTeeth('13, UL3')).toBeUndefined();
    expect(parseTeeth('1.5')).toBeUndefined();
    expect(parseTeeth('123')).toBeUndefined();
  });
});
