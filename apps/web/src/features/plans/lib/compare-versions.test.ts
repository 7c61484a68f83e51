import { i18n } from '@lingui/core';
import type { PlanMovementsAnswer, ToothMovement } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { compareVersions } from './compare-versions.ts';

// The messages in English, as the code writes them (the words these tests check).
i18n.loadAndActivate({ locale: 'en', messages: {} });

const summary = (upper: number, ipr: [string, number][], attachments: number[], later: [number, number][] = []) => ({
  upperStages: upper,
  lowerStages: 10,
  ipr: ipr.map(([contact, amountMm]) => ({ contact, amountMm })),
  attachmentTeeth: attachments,
  attachmentStages: later.map(([tooth, stage]) => ({ tooth, stage })),
  notes: '',
});

const tooth = (number: number, mesiodistal: number, vertical = 0): ToothMovement => ({
  tooth: number,
  arch: 'upper',
  translationMm: { mesiodistal, buccolingual: 0, vertical, total: Math.hypot(mesiodistal, vertical) },
  rotationDeg: { tip: 0, torque: 0, rotation: 0 },
  maxStepMm: 0.2,
  maxStepDeg: 1,
  overLimit: false,
});

const movements = (teeth: ToothMovement[]): PlanMovementsAnswer => ({
  available: true,
  limits: { stepMm: 0.25, stepDeg: 2 },
  teeth,
});

describe('compareVersions', () => {
  it('names the stage counts, the IPR per contact, the attachments and the teeth whose final position moved', () => {
    const changes = compareVersions(
      {
        version: 1,
        summary: summary(
          12,
          [
            ['11-21', 0.2],
            ['12-11', 0.3],
          ],
          [13, 23],
        ),
        movements: movements([tooth(8, 1), tooth(9, 0.5)]),
      },
      {
        version: 2,
        summary: summary(
          14,
          [
            ['11-21', 0.2],
            ['12-11', 0.1],
          ],
          [23, 24],
          [[23, 3]],
        ),
        movements: movements([tooth(8, 1.05), tooth(9, 0.5, 0.3)]),
      },
      (universal) => `#${universal}`,
    );
    expect(changes).toEqual([
      'Upper stages: 12 → 14',
      'IPR: 0.50 → 0.30 mm in all (12-11 0.30 → 0.10 mm)',
      'Attachments added on 24',
      'Attachments removed from 13',
      'Attachments placed at another stage: 23 stage 0 → 3',
      // Tooth 8 moved 0.05 mm: under the 0.1 mm named.
      'Final position moved more than 0.1 mm: #9 (0.30 mm)',
    ]);
  });

  it('says when nothing moved, and when the movements are missing', () => {
    const same = summary(12, [], []);
    expect(
      compareVersions(
        { version: 1, summary: same, movements: movements([tooth(8, 1)]) },
        { version: 2, summary: same, movements: movements([tooth(8, 1.02)]) },
        String,
      ),
    ).toEqual(['No tooth ends more than 0.1 mm from where version 1 put it']);
    expect(compareVersions({ version: 1, summary: same }, { version: 2, summary: same }, String)).toEqual([
      'The final positions cannot be compared: the tooth movements of both versions are needed',
    ]);
  });
});
