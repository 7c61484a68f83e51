import { describe, expect, it } from 'vitest';
import { listed } from './listed.ts';

describe('listed', () => {
  it('writes a list as Intl.ListFormat does in English', () => {
    const lists = [[], ['upper'], ['upper', 'lower'], ['upper', 'lower', 'bite'], ['a', 'b', 'c', 'd']];
    for (const names of lists) expect(listed(names)).toBe(new Intl.ListFormat('en').format(names));
  });
});
