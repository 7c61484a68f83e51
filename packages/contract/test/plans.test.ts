import { describe, expect, it } from 'vitest';
import { expectedStages, isAdjacentContact, parseStageFileName, planSummary } from '../src/plans.ts';

describe('parseStageFileName', () => {
  it.each([
    ['upper_03.stl', { arch: 'upper', stage: 3 }],
    ['lower-12.stl', { arch: 'lower', stage: 12 }],
    ['Maxillary_Stage_3.stl', { arch: 'upper', stage: 3 }],
    ['Mandibular Stage 05.stl', { arch: 'lower', stage: 5 }],
    ['Subsetup3_Maxillary.stl', { arch: 'upper', stage: 3 }],
    ['Subsetup12_Mandibular.STL', { arch: 'lower', stage: 12 }],
    ['LOWER_0.STL', { arch: 'lower', stage: 0 }],
    ['export/case 7/Maxilla Step 2.stl', { arch: 'upper', stage: 2 }],
    ['..\\..\\upper_01.stl', { arch: 'upper', stage: 1 }],
    ['Stage_04_Lower.stl', { arch: 'lower', stage: 4 }],
  ])('reads %s', (name, expected) => {
    expect(parseStageFileName(name)).toEqual(expected);
  });

  it.each([
    'upper_03.obj',
    'upper.stl',
    'stage_3.stl',
    'upper_lower_3.stl',
    'upper_3_4.stl',
    'upper_100.stl',
    'upper_0003.stl',
    'final upper 3.stl',
    'upper 3 copy.stl',
    'upper+3.stl',
    '.stl',
  ])('does not recognise %s', (name) => {
    expect(parseStageFileName(name)).toBeUndefined();
  });
});

describe('plan summary', () => {
  it('numbers stages from 0 (the initial position) to N', () => {
    expect(expectedStages(0)).toEqual([]);
    expect(expectedStages(3)).toEqual([0, 1, 2, 3]);
  });

  it('knows adjacent FDI contacts', () => {
    for (const contact of ['11-21', '21-11', '13-14', '31-41', '47-48']) expect(isAdjacentContact(contact)).toBe(true);
    for (const contact of ['11-13', '11-31', '12-22', '18-19', '11-', 'x'])
      expect(isAdjacentContact(contact)).toBe(false);
  });

  it('needs stages in one arch at least and fills the optional lists', () => {
    expect(planSummary.safeParse({ upperStages: 0, lowerStages: 0 }).success).toBe(false);
    expect(planSummary.parse({ upperStages: 4, lowerStages: 0 })).toEqual({
      upperStages: 4,
      lowerStages: 0,
      ipr: [],
      attachmentTeeth: [],
      attachmentStages: [],
      notes: '',
      findingsReason: '',
    });
    expect(planSummary.safeParse({ upperStages: 4, lowerStages: 0, attachmentTeeth: [13, 13] }).success).toBe(false);
  });

  it('places an attachment at a stage of its own arch, on an attachment tooth, once', () => {
    const placed = planSummary.parse({
      upperStages: 4,
      lowerStages: 6,
      attachmentTeeth: [13, 33],
      attachmentStages: [{ tooth: 33, stage: 5 }],
    });
    expect(placed.attachmentStages).toEqual([{ tooth: 33, stage: 5 }]);
    const problems = (attachmentStages: unknown) =>
      planSummary
        .safeParse({ upperStages: 4, lowerStages: 6, attachmentTeeth: [13, 33], attachmentStages })
        .error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(problems([{ tooth: 13, stage: 5 }])).toEqual([
      "attachmentStages.0.stage: Attachment on 13 is placed after its arch's last stage (4)",
    ]);
    expect(problems([{ tooth: 23, stage: 1 }])).toEqual([
      'attachmentStages.0.tooth: Attachment stages must name attachment teeth, each once',
    ]);
    expect(
      problems([
        { tooth: 13, stage: 1 },
        { tooth: 13, stage: 2 },
      ]),
    ).toEqual(['attachmentStages.1.tooth: Attachment stages must name attachment teeth, each once']);
    expect(problems([{ tooth: 13, stage: 1.5 }])).toEqual([
      'attachmentStages.0.stage: Attachment stage must be a whole number',
    ]);
  });
});
