import { i18n } from '@lingui/core';
import type { PlanMovementsAnswer, ToothMovement } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { toothMarkers } from './tooth-markers.ts';

// The messages in English, as the code writes them (the words these tests check).
i18n.loadAndActivate({ locale: 'en', messages: {} });

const tooth = (universal: number, shell: number): ToothMovement => ({
  tooth: universal,
  arch: universal <= 16 ? 'upper' : 'lower',
  shell,
  translationMm: { mesiodistal: 0, buccolingual: 0, vertical: 0, total: 0 },
  rotationDeg: { tip: 0, torque: 0, rotation: 0 },
  maxStepMm: 0,
  maxStepDeg: 0,
  overLimit: false,
});

// FDI 11 and 21 are Universal 8 and 9; FDI 13 is 6; FDI 33 is 22.
const movements: PlanMovementsAnswer = {
  available: true,
  limits: { stepMm: 0.25, stepDeg: 2 },
  teeth: [tooth(8, 3), tooth(9, 4), tooth(6, 1), tooth(22, 7)],
};

describe('toothMarkers', () => {
  it("puts each IPR contact between its two teeth's shells from its stage, each attachment on its tooth's shell from its stage", () => {
    const summary = {
      upperStages: 10,
      lowerStages: 10,
      ipr: [
        { contact: '11-21', amountMm: 0.25, stage: 3 },
        { contact: '12-11', amountMm: 0.3 },
      ],
      attachmentTeeth: [13, 33, 44],
      attachmentStages: [{ tooth: 33, stage: 4 }],
      notes: '',
    };
    expect(toothMarkers(summary, movements)).toEqual([
      // To the hundredth: 0.25 mm is not shown as 0.3.
      { kind: 'ipr', arch: 'upper', shells: [3, 4], text: '0.25', fromStage: 3 },
      // 12 is not in the table: no marker for that contact; 44 neither.
      { kind: 'attachment', arch: 'upper', shells: [1], text: 'A', fromStage: 0 },
      { kind: 'attachment', arch: 'lower', shells: [7], text: 'A', fromStage: 4 },
    ]);
  });

  it('has none without the movement table', () => {
    const summary = { upperStages: 1, lowerStages: 0, ipr: [], attachmentTeeth: [13], attachmentStages: [], notes: '' };
    expect(toothMarkers(summary, undefined)).toEqual([]);
    expect(toothMarkers(summary, { ...movements, available: false })).toEqual([]);
  });
});
