import { describe, expect, it } from 'vitest';
import { chooseRank } from './rank-choice.ts';

const allRanked = {
  iprPreference: 'First preference',
  proclination: 'Second preference',
  expansion: 'Third preference',
  extraction: 'Fourth preference',
};

describe('ranked preferences', () => {
  it('swaps two ranks when a rank another preference holds is chosen', () => {
    expect(chooseRank(allRanked, 'expansion', 'First preference')).toEqual({
      iprPreference: 'Third preference',
      proclination: 'Second preference',
      expansion: 'First preference',
      extraction: 'Fourth preference',
    });
  });

  it('clears a rank, after which every rank but the others still held is free', () => {
    const cleared = chooseRank(allRanked, 'proclination', '');
    expect(cleared).toEqual({ ...allRanked, proclination: '' });
    expect(chooseRank(cleared, 'iprPreference', 'Second preference')).toEqual({
      ...allRanked,
      iprPreference: 'Second preference',
      proclination: '',
    });
  });

  it('gives a free rank without touching the others, and an unranked holder of a taken rank leaves the holder unranked', () => {
    expect(chooseRank({ iprPreference: 'First preference' }, 'extraction', 'Second preference')).toEqual({
      iprPreference: 'First preference',
      proclination: '',
      expansion: '',
      extraction: 'Second preference',
    });
    expect(
      chooseRank({ iprPreference: 'First preference', proclination: null }, 'proclination', 'First preference'),
    ).toEqual({
      iprPreference: '',
      proclination: 'First preference',
      expansion: '',
      extraction: '',
    });
  });
});
