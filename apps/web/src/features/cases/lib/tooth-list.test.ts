import { describe, expect, it } from 'vitest';
import { parseToothList, toggleTooth } from './tooth-list.ts';

describe('tooth lists', () => {
  it('reads a stored list and treats empty and N/A as none', () => {
    expect(parseToothList('3, 14,30')).toEqual([3, 14, 30]);
    expect(parseToothList('')).toEqual([]);
    expect(parseToothList('N/A')).toEqual([]);
  });

  it('toggles a tooth in and out, keeping the list sorted', () => {
    expect(toggleTooth('', 14)).toBe('14');
    expect(toggleTooth('14', 3)).toBe('3,14');
    expect(toggleTooth('3,14', 14)).toBe('3');
    expect(toggleTooth('3', 3)).toBe('');
  });
});
