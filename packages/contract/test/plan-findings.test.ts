import { describe, expect, it } from 'vitest';
import { checkPlan, iprAllowance, type CheckedTooth, type PlanCheckInput } from '../src/plan-findings.ts';

/** A plan keeping to everything: teeth 3-14 move within the limits, the held ones stay. */
const still = (tooth: number): CheckedTooth => ({
  tooth,
  furthestMm: 0.05,
  furthestDeg: 0.4,
  maxStepMm: 0.03,
  maxStepDeg: 0.2,
});
const moving = (tooth: number): CheckedTooth => ({
  tooth,
  furthestMm: 2,
  furthestDeg: 6,
  maxStepMm: 0.2,
  maxStepDeg: 1.5,
});

function input(patch: Partial<PlanCheckInput> = {}, prescription: Partial<PlanCheckInput['prescription']> = {}) {
  return {
    prescription: {
      moveTooth: '3, 14',
      extractTooth: '1',
      noAttachment: '8',
      ipr: 'As contacts become accessible',
      iprPrescription: 'As contacts become accessible',
      toothNumbering: 'Universal',
      ...prescription,
    },
    summary: {
      upperStages: 10,
      lowerStages: 0,
      ipr: [{ contact: '12-13', amountMm: 0.2, stage: 4 }],
      attachmentTeeth: [13, 23],
    },
    limits: { stepMm: 0.25, stepDeg: 2 },
    measured: [still(3), ...[4, 5, 6, 7, 8, 9, 10, 11, 12, 13].map(moving), still(14)],
    measuredArches: ['upper'],
    ...patch,
  } satisfies PlanCheckInput;
}

describe('checkPlan', () => {
  it('finds nothing in a plan that keeps to the prescription and the limits', () => {
    expect(checkPlan(input())).toEqual([]);
  });

  it("finds a don't-move tooth that moves more than 0.1 mm or turns more than 1°, named in the case's numbering", () => {
    const measured = [{ ...still(3), furthestMm: 3.04 }, { ...still(14), furthestDeg: 1.2 }, moving(5)];
    expect(checkPlan(input({ measured }, { toothNumbering: 'FDI' }))).toEqual([
      { kind: 'doNotMove', teeth: [3], message: '16 moves 3.04 mm; the prescription says not to move it' },
      { kind: 'doNotMove', teeth: [14], message: '26 turns 1.2°; the prescription says not to move it' },
    ]);
    // 0.1 mm and 1° themselves are still "not moved".
    expect(checkPlan(input({ measured: [{ ...still(3), furthestMm: 0.1, furthestDeg: 1 }] }))).toEqual([]);
  });

  it('finds a tooth to extract that is still in the last stage of its measured arch', () => {
    expect(checkPlan(input({}, { extractTooth: '5, 30' }))).toEqual([
      {
        kind: 'extraction',
        teeth: [5],
        message: '5 is still there in the last stage; the prescription says to extract it',
      },
    ]);
    // Not measured: not known.
    expect(checkPlan(input({ measured: [], measuredArches: [] }, { extractTooth: '5' }))).toEqual([]);
  });

  it('finds IPR the prescription does not allow: none, after the initial stage, or on teeth it excludes', () => {
    expect(checkPlan(input({}, { ipr: 'No IPR', iprPrescription: 'No IPR' }))).toEqual([
      { kind: 'ipr', teeth: [7, 6], message: '0.20 mm of IPR at 7-6 (stage 4); the prescription says No IPR' },
    ]);
    expect(checkPlan(input({}, { ipr: 'Initial stage IPR' }))[0]).toMatchObject({
      kind: 'ipr',
      message: '0.20 mm of IPR at 7-6 (stage 4); the prescription asks for IPR at the initial stage only',
    });
    const initial = input(
      { summary: { ...input().summary, ipr: [{ contact: '12-13', amountMm: 0.3, stage: 1 }] } },
      {
        ipr: 'Initial stage IPR',
      },
    );
    expect(checkPlan(initial)).toEqual([]);
    // The free text, read when there is no pick.
    expect(checkPlan(input({}, { ipr: '', iprPrescription: 'No IPR on 6, 11' }))).toEqual([
      { kind: 'ipr', teeth: [7, 6], message: '0.20 mm of IPR at 7-6 (stage 4); the prescription says no IPR on 6' },
    ]);
    expect(checkPlan(input({}, { ipr: '', iprPrescription: 'Upper anteriors 0.2 mm' }))).toEqual([]);
  });

  it('reads "No IPR on ..." in FDI for an FDI case, and nothing it cannot read', () => {
    expect(iprAllowance({ ipr: '', iprPrescription: 'No IPR on 13 and 23.', toothNumbering: 'FDI' })).toEqual({
      rule: undefined,
      excluded: [6, 11],
    });
    expect(iprAllowance({ ipr: '', iprPrescription: 'no ipr', toothNumbering: 'FDI' })).toEqual({
      rule: 'none',
      excluded: [],
    });
    expect(
      iprAllowance({ ipr: '', iprPrescription: 'No IPR on the 13 please', toothNumbering: 'FDI' }).excluded,
    ).toEqual([]);
    expect(iprAllowance({ ipr: '', iprPrescription: 'No IPR on 99', toothNumbering: 'FDI' }).excluded).toEqual([]);
  });

  it('finds attachments on teeth the prescription leaves without (the summary in FDI, the list in Universal)', () => {
    const summary = { ...input().summary, attachmentTeeth: [11, 13] };
    expect(checkPlan(input({ summary }, { toothNumbering: 'Palmer' }))).toEqual([
      { kind: 'attachment', teeth: [8], message: 'Attachment on 1┘; the prescription says no attachment on it' },
    ]);
  });

  it("finds the teeth over the lab's per-stage limit in one finding", () => {
    const measured = [still(3), { ...moving(5), maxStepMm: 0.31 }, { ...moving(6), maxStepDeg: 2.4 }, still(14)];
    expect(checkPlan(input({ measured }))).toEqual([
      {
        kind: 'stepLimit',
        teeth: [5, 6],
        message: "2 teeth move more than the lab's limit of 0.25 mm or 2° in one stage: 5 (0.31 mm), 6 (2.4°)",
      },
    ]);
  });

  it('checks the summary alone before the movements are measured (the upload form)', () => {
    const summary = { ...input().summary, attachmentTeeth: [11] };
    expect(
      checkPlan(input({ summary, measured: [], measuredArches: [] }, { ipr: 'No IPR', extractTooth: '5' })).map(
        (finding) => finding.kind,
      ),
    ).toEqual(['ipr', 'attachment']);
  });
});
