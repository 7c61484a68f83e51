import { describe, expect, it } from 'vitest';
import { i18n } from '../../../../lib/i18n.ts';
import { chooseRank, rankSwapNote } from './rank-choice.ts';

// English, the spec's words, as the app's tests show them (testing/render.tsx).
i18n.loadAndActivate({ locale: 'en', messages: {} });

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

describe('the swap, said', () => {
  it('names the preference that moved and where to, and nothing when no other moved', () => {
    expect(rankSwapNote(allRanked, 'expansion', 'First preference')).toBe('IPR moved to Third preference');
    expect(rankSwapNote({ iprPreference: 'First preference' }, 'extraction', 'First preference')).toBe(
      'IPR now has no rank',
    );
    expect(rankSwapNote({ iprPreference: 'First preference' }, 'extraction', 'Second preference')).toBeNull();
    expect(rankSwapNote(allRanked, 'expansion', '')).toBeNull();
  });
});
