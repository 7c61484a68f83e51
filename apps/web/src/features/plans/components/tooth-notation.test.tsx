// @vitest-environment happy-dom
import type { PlanMovementsAnswer } from '@portal/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../../testing/fake-api.ts';
import { renderWithApp } from '../../../testing/render.tsx';
import { MovementTable } from './movement-table.tsx';

/** The movement table's teeth in the reader's notation, not the case's (docs/decisions/tooth-notation.md). */

const movements: PlanMovementsAnswer = {
  available: true,
  limits: { stepMm: 0.25, stepDeg: 2 },
  teeth: [
    {
      tooth: 8,
      arch: 'upper',
      translationMm: { mesiodistal: 0.1, buccolingual: 0, vertical: 0, total: 0.1 },
      rotationDeg: { tip: 0, torque: 0, rotation: 0 },
      maxStepMm: 0.1,
      maxStepDeg: 0,
      overLimit: false,
    },
  ],
};

/** The movement table's one tooth, as its row header names it (Universal 8: the upper right central incisor). */
const shownTooth = async () => (await screen.findByRole('rowheader', { name: /Upper right 1/ })).textContent;

describe("the movement table in the reader's tooth notation", () => {
  it('names the movement table’s teeth in the user’s notation, whatever the case’s', async () => {
    fakeApi({
      'GET /api/case/7/plans/1/movements': movements,
      'GET /api/account/tooth-notation': { toothNotation: 'Palmer' },
    });
    renderWithApp(<MovementTable caseId={7} planId={1} system="FDI" />);
    await expect.poll(shownTooth).toBe('1┘');
  });

  it('names them in Universal for a user who reads Universal, on an FDI case', async () => {
    fakeApi({
      'GET /api/case/7/plans/1/movements': movements,
      'GET /api/account/tooth-notation': { toothNotation: 'Universal' },
    });
    renderWithApp(<MovementTable caseId={7} planId={1} system="FDI" />);
    await expect.poll(shownTooth).toBe('8');
  });

  it('keeps the case’s numbering while the user’s cannot be read', async () => {
    fakeApi({ 'GET /api/case/7/plans/1/movements': movements });
    renderWithApp(<MovementTable caseId={7} planId={1} system="FDI" />);
    expect(await shownTooth()).toBe('11');
  });
});
