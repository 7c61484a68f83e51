import { describe, expect, it } from 'vitest';
import { checkStageFiles, stageRuns } from './stage-files-check.ts';

describe('checkStageFiles', () => {
  it('lists per arch the stages found, missing against the typed counts, duplicated and past the last', () => {
    const names = [
      'upper_00.stl',
      'upper_01.stl',
      'Maxillary_Stage_1.stl',
      'upper_03.stl',
      'upper_05.stl',
      'Mandibular Stage 00.stl',
      'lower-01.stl',
      'Subsetup2_Mandibular.stl',
    ];
    expect(checkStageFiles(names, { upper: 4, lower: 2 })).toEqual({
      arches: [
        { arch: 'upper', found: [0, 1, 3, 5], missing: [2, 4], duplicates: [1], beyondLast: [5] },
        { arch: 'lower', found: [0, 1, 2], missing: [], duplicates: [], beyondLast: [] },
      ],
      unreadable: [],
    });
  });

  it('sets apart names it cannot read (a ZIP within a ZIP too), and leaves out an arch with neither stages nor files', () => {
    const check = checkStageFiles(['upper_00.stl', 'scan.stl', 'upper_lower_1.stl', 'plan/inner.ZIP'], {
      upper: undefined,
      lower: 0,
    });
    expect(check).toEqual({
      arches: [{ arch: 'upper', found: [0], missing: undefined, duplicates: [], beyondLast: [] }],
      unreadable: ['scan.stl', 'upper_lower_1.stl', 'plan/inner.ZIP'],
    });
  });

  it('names every stage of a typed arch missing when none of its files came', () => {
    expect(checkStageFiles([], { upper: 2, lower: 0 }).arches).toEqual([
      { arch: 'upper', found: [], missing: [0, 1, 2], duplicates: [], beyondLast: [] },
    ]);
  });
});

describe('stageRuns', () => {
  it('writes consecutive stages as ranges', () => {
    expect(stageRuns([0, 1, 2, 3, 5, 7, 8])).toBe('0–3, 5, 7–8');
    expect(stageRuns([])).toBe('');
  });
});
