// @vitest-environment happy-dom
import type { PlanMovementsAnswer, PlanVersion } from '@portal/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../../testing/fake-api.ts';
import { renderWithApp } from '../../../testing/render.tsx';
import { MovementTable } from './movement-table.tsx';
import { PlanPanel } from './plan-panel.tsx';
import { PlanSummaryView } from './plan-summary.tsx';
import { StageFilesList } from './stage-files-list.tsx';
import { StageControls, useStageControls } from './stage-viewer/stage-controls.tsx';

/** The plan screens' English through Lingui: the spec's words, byte for byte, plurals included. */

const version = (overrides: Partial<PlanVersion>): PlanVersion => ({
  planId: 1,
  caseId: 7,
  version: 1,
  state: 'awaiting_approval',
  summary: {
    upperStages: 12,
    lowerStages: 10,
    ipr: [{ contact: '11-21', amountMm: 0.25, stage: 3 }],
    attachmentTeeth: [13, 23],
    attachmentStages: [{ tooth: 23, stage: 5 }],
    notes: '',
    findingsReason: '',
  },
  uploadedBy: 2,
  uploadedByName: 'Lab Tech',
  createdAt: '2026-01-05T10:00:00.000Z',
  decidedBy: null,
  decidedByName: null,
  decidedAt: null,
  reviewedIn3d: null,
  comment: null,
  stages: [],
  findings: [],
  findingsCheck: { state: 'complete', note: null },
  findingsAcknowledged: null,
  ...overrides,
});

describe("the plan screens' words", () => {
  it('lists the versions with their states, findings and buttons', async () => {
    fakeApi({
      'GET /api/case/7/plans': [
        version({
          planId: 2,
          version: 2,
          findings: [
            { kind: 'ipr', teeth: [8, 9], message: 'IPR at 11-21, which the prescription does not allow' },
            { kind: 'doNotMove', teeth: [6], message: 'Tooth 13 moves' },
          ],
        }),
        version({
          state: 'changes_requested',
          decidedBy: 3,
          decidedByName: 'Dr Who',
          decidedAt: '2026-01-04T10:00:00.000Z',
          comment: 'Less IPR',
          findings: [{ kind: 'stepLimit', teeth: [8], message: 'Tooth 11 steps too far' }],
        }),
      ],
    });
    renderWithApp(
      <PlanPanel
        caseId={7}
        viewer="doctor"
        numbering="FDI"
        prescription={{} as Parameters<typeof PlanPanel>[0]['prescription']}
      />,
    );
    const list = await screen.findByRole('list', { name: 'Plan versions' });
    const latest = within(list).getByRole('listitem', { name: 'Version 2' });
    expect(within(latest).getByText(/^12 upper, 10 lower stages · uploaded by Lab Tech /)).toBeTruthy();
    expect(within(latest).getByText('Version 2 departs from the prescription: 2 findings')).toBeTruthy();
    expect(within(latest).getByText('Open version 2 in 3D to approve it.')).toBeTruthy();
    expect(within(latest).getByRole('button', { name: 'View version 2 in 3D' })).toBeTruthy();
    expect(within(latest).getByRole('button', { name: 'Request changes' })).toBeTruthy();
    expect(within(latest).getByText("Don't move:")).toBeTruthy();
    const earlier = within(list).getByRole('listitem', { name: 'Version 1' });
    expect(within(earlier).getByText('Changes requested by Dr Who: Less IPR')).toBeTruthy();
    expect(within(earlier).getByText('Version 1 departs from the prescription: 1 finding')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Treatment Plan' })).toBeTruthy();
  });

  it('shows the summary, with the IPR of the stage shown marked', () => {
    renderWithApp(<PlanSummaryView summary={version({}).summary} stage={3} />);
    expect(screen.getByText('Upper: 12 · Lower: 10 (stage 0 is the initial position)')).toBeTruthy();
    expect(screen.getByText('0.25 mm')).toBeTruthy();
    expect(screen.getByRole('row', { current: 'step' }).textContent).toBe('11-210.25 mm3 (this stage)');
    expect(screen.getByText('13, 23 (stage 5)')).toBeTruthy();
    expect(screen.getByText('None')).toBeTruthy();
  });

  it('writes the movement table’s figures as before', async () => {
    const movements: PlanMovementsAnswer = {
      available: true,
      limits: { stepMm: 0.25, stepDeg: 2 },
      teeth: [
        {
          tooth: 8,
          arch: 'upper',
          translationMm: { mesiodistal: -1.234, buccolingual: 0.001, vertical: 0.5, total: 1.5 },
          rotationDeg: { tip: 2.25, torque: -0.04, rotation: 0 },
          maxStepMm: 0.3,
          maxStepDeg: 1.5,
          overLimit: true,
        },
      ],
    };
    fakeApi({ 'GET /api/case/7/plans/1/movements': movements });
    renderWithApp(<MovementTable caseId={7} planId={1} system="FDI" />);
    expect(await screen.findByText('1 tooth moves more than 0.25 mm or 2° in one stage.')).toBeTruthy();
    const row = screen.getAllByRole('row')[1]!;
    expect([...row.querySelectorAll('td')].map((cell) => cell.textContent)).toEqual([
      '−1.23',
      '0.00',
      '+0.50',
      '1.50',
      '+2.3',
      '0.0',
      '0.0',
      '0.300 mm, 1.50° · over the limit',
    ]);
  });

  it('lists the chosen stage files per arch', () => {
    renderWithApp(
      <StageFilesList
        files={[new File([], 'upper_00.stl'), new File([], 'upper_02.stl'), new File([], 'odd.stl')]}
        listing={{ names: ['upper_00.stl', 'upper_02.stl', 'odd.stl'], zips: [] }}
        counts={{ upper: 2, lower: undefined }}
      />,
    );
    expect(screen.getByText('3 files selected')).toBeTruthy();
    const upper = screen.getByRole('group', { name: 'Upper arch' });
    expect(within(upper).getByText('Upper arch: stages 0–2')).toBeTruthy();
    expect(within(upper).getByText('Found: 0, 2')).toBeTruthy();
    expect(within(upper).getByText('Missing: 1')).toBeTruthy();
    expect(screen.getByText('Names that do not say the arch and stage (e.g. upper_03.stl): odd.stl')).toBeTruthy();
  });

  it("speaks the patient's words on a patient link", async () => {
    function Controls() {
      const controls = useStageControls({ summary: { upperStages: 4, lowerStages: 0 } });
      return <StageControls controls={controls} isWaiting onView={() => undefined} forPatient />;
    }
    renderWithApp(<Controls />);
    expect(await screen.findByText('Stage 0 of 4 (loading…)')).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Show your teeth today, faintly' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Upper teeth from below' })).toBeTruthy();
    expect(
      screen.getByText(
        'Drag to turn the teeth, scroll to zoom, drag with the right mouse button to move them. Stage 0 is your teeth today; each stage after it is one aligner. With your teeth today shown faintly, you see how far they have moved.',
      ),
    ).toBeTruthy();
  });
});
