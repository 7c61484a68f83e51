// @vitest-environment happy-dom
import type { ProgressScan, ProgressScanArch, ProgressScanListItem, ProgressScanTooth } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../../testing/fake-api.ts';
import { renderWithApp } from '../../../testing/render.tsx';
import { refinementInstructions, stageWords, summarySentence } from '../lib/progress-words.ts';
import { ProgressPanel } from './progress-panel.tsx';
import { ProgressResult, toothTrends } from './progress-result.tsx';
import { SendProgressScanModal } from './send-progress-scan-modal.tsx';

const tooth = (universal: number, patch: Partial<ProgressScanTooth> = {}): ProgressScanTooth => ({
  tooth: universal,
  offsetMm: 0.05,
  angleDeg: 0.3,
  translationMm: { mesiodistal: 0.02, buccolingual: -0.03, vertical: 0.01 },
  rotationDeg: { tip: 0.1, torque: -0.2, rotation: 0.1 },
  matchedStage: 12,
  achievedPercent: 98,
  offTrack: false,
  ...patch,
});

// Upper: 3 stuck three stages back, 8 a little behind; lower: 30 off by its angle.
const upper: ProgressScanArch = {
  arch: 'upper',
  rmsMm: 0.021,
  anchorTeeth: [4, 5, 6, 7, 9, 10, 11, 12, 13],
  teeth: [
    tooth(3, {
      offsetMm: 0.92,
      angleDeg: 3.4,
      translationMm: { mesiodistal: -0.61, buccolingual: 0.52, vertical: -0.44 },
      matchedStage: 9,
      achievedPercent: 41,
      offTrack: true,
    }),
    ...[4, 5, 6, 7].map((universal) => tooth(universal)),
    tooth(8, { offsetMm: 0.2, matchedStage: 11, achievedPercent: 87 }),
    ...[9, 10, 11, 12, 13].map((universal) => tooth(universal)),
    tooth(14, { offsetMm: 0.1, matchedStage: 13, achievedPercent: null }),
  ],
  notInView: [2],
};
const lower: ProgressScanArch = {
  arch: 'lower',
  rmsMm: 0.03,
  anchorTeeth: [22, 23, 24, 25, 26, 27],
  teeth: [
    tooth(30, { offsetMm: 0.31, angleDeg: 2.6, offTrack: true }),
    ...[22, 23, 24, 25, 26, 27].map((u) => tooth(u)),
  ],
  notInView: [],
};

const scan: ProgressScan = {
  progressScanId: 7,
  planId: 3,
  stage: 12,
  state: 'done',
  arches: [upper, lower],
  sent: ['upper', 'lower'],
  createdAt: '2026-12-05T10:00:00.000Z',
  finishedAt: '2026-12-05T10:00:05.000Z',
};

describe('Progress scan words', () => {
  it('names the stage a tooth matches against the aligner worn', () => {
    expect(stageWords(9, 12)).toBe('3 stages behind');
    expect(stageWords(11, 12)).toBe('1 stage behind');
    expect(stageWords(12, 12)).toBe('on stage');
    expect(stageWords(13, 12)).toBe('1 stage ahead');
  });

  it("writes the summary in the case's numbering", () => {
    const summary = { offTrackTeeth: [2, 3, 13, 21], teeth: 28, sentence: '' };
    expect(summarySentence(summary, 'Universal')).toBe('4 of 28 teeth off track: 2, 3, 13, 21; the rest on track');
    expect(summarySentence(summary, 'FDI')).toBe('4 of 28 teeth off track: 17, 16, 25, 34; the rest on track');
    expect(summarySentence({ offTrackTeeth: [], teeth: 28, sentence: '' }, 'FDI')).toBe('All 28 teeth on track');
  });

  it('lists the off-track teeth, how far and how far behind, for the refinement', () => {
    const text = refinementInstructions(scan, 'FDI', 'December 5, 2026');
    expect(text).toContain('at aligner 12 (FDI numbering)');
    expect(text).toContain('Off track: 16, 46.');
    expect(text).toContain('16: 0.92 mm, 3.4° off the plan, 3 stages behind');
    expect(text).toContain('46: 0.31 mm, 2.6° off the plan, on stage');
  });
});

describe('Progress scan result', () => {
  it('reads the summary, the trust line and each tooth in FDI, off-track rows marked', () => {
    const earlier = { stage: 8, arches: [{ ...upper, teeth: [tooth(3, { offsetMm: 0.4 })] }] };
    renderWithApp(<ProgressResult scan={scan} system="FDI" trends={toothTrends([earlier, scan])} />);
    expect(screen.getByText('2 of 19 teeth off track: 16, 46; the rest on track')).toBeTruthy();
    expect(
      screen.getByText(/Anchored on 9 teeth \(15, 14, 13, 12, 21, 22, 23, 24, 25\), residual 0\.021 mm/),
    ).toBeTruthy();
    expect(screen.getByText(/not measured \(too little in view\): 17/)).toBeTruthy();

    const upperTable = within(screen.getByRole('region', { name: /Upper arch teeth/ })).getByRole('table');
    const row16 = within(upperTable).getByRole('row', { name: /Upper right 6 \(tooth 3\), off track/ });
    const cells = within(row16)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(within(row16).getByRole('rowheader').textContent).toBe('16Off track');
    expect(cells.slice(0, 10)).toEqual([
      '0.92',
      '3.4',
      '−0.61',
      '+0.52',
      '−0.44',
      '+0.1',
      '−0.2',
      '+0.1',
      '3 stages behind',
      '41%',
    ]);
    expect(row16.getAttribute('data-off-track')).toBe('true');
    // A trend over the two scans, told in words.
    expect(
      within(row16).getByRole('img', { name: 'Offset over 2 scans: 0.40 mm at aligner 8, 0.92 mm at aligner 12' }),
    ).toBeTruthy();

    const row8 = within(upperTable).getByRole('row', { name: /\(tooth 8\)/ });
    expect(within(row8).getByText('1 stage behind')).toBeTruthy();
    expect(row8.getAttribute('data-off-track')).toBeNull();
    const row14 = within(upperTable).getByRole('row', { name: /\(tooth 14\)/ });
    expect(within(row14).getByText('1 stage ahead')).toBeTruthy();
    expect(within(row14).getByText('—', { selector: 'td' })).toBeTruthy();

    const lowerTable = within(screen.getByRole('region', { name: /Lower arch teeth/ })).getByRole('table');
    expect(within(lowerTable).getAllByText('Off track')).toHaveLength(1);
    expect(within(lowerTable).getByRole('row', { name: /\(tooth 30\), off track/ })).toBeTruthy();
  });

  it('says all teeth are on track when none is off', () => {
    const onTrack = { ...scan, arches: [{ ...lower, teeth: lower.teeth.map((t) => ({ ...t, offTrack: false })) }] };
    renderWithApp(<ProgressResult scan={onTrack} system="Universal" trends={new Map()} />);
    expect(screen.getByText('All 7 teeth on track')).toBeTruthy();
    expect(screen.queryByText('Off track')).toBeNull();
  });
});

const listItem = (patch: Partial<ProgressScanListItem>): ProgressScanListItem => ({
  progressScanId: 1,
  planId: 3,
  stage: 5,
  state: 'done',
  sent: ['upper'],
  createdAt: '2026-11-01T10:00:00.000Z',
  finishedAt: '2026-11-01T10:00:05.000Z',
  summary: null,
  ...patch,
});

describe('Progress scans on the case page', () => {
  it('lists each scan newest first with its state, opens a result and offers the refinement from it', async () => {
    const api = fakeApi({
      'GET /api/case/4/progress-scans': [
        listItem({ progressScanId: 9, stage: 14, state: 'running', finishedAt: null }),
        listItem({
          progressScanId: 8,
          stage: 13,
          state: 'failed',
          reason: 'the upper scan does not fit the plan: too few teeth in view',
        }),
        listItem({
          progressScanId: 7,
          stage: 12,
          createdAt: scan.createdAt,
          summary: { offTrackTeeth: [3, 30], teeth: 19, sentence: '' },
        }),
      ],
      'GET /api/case/4/progress-scans/7': scan,
    });
    const { user } = renderWithApp(
      <ProgressPanel caseId={4} numbering="FDI" approved={{ version: 2, upperStages: 20, lowerStages: 18 }} canOrder />,
    );
    const items = await screen.findAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual([
      'Progress scan at aligner 14',
      'Progress scan at aligner 13',
      'Progress scan at aligner 12',
    ]);
    expect(within(items[0]!).getByText('Fitting…')).toBeTruthy();
    expect(within(items[1]!).getByText('the upper scan does not fit the plan: too few teeth in view')).toBeTruthy();
    expect(within(items[2]!).getByText('2 of 19 teeth off track: 16, 46; the rest on track')).toBeTruthy();
    await user.click(within(items[2]!).getByRole('button', { name: 'See the result' }));
    expect(await screen.findByRole('button', { name: 'Order a refinement' })).toBeTruthy();
    expect(screen.getByRole('region', { name: /Upper arch teeth/ })).toBeTruthy();
    expect(api.changes()).toEqual([]);
  });

  it('refuses a scan without a file or past the plan, and sends nothing', async () => {
    const api = fakeApi();
    const { user } = renderWithApp(
      <SendProgressScanModal
        caseId={4}
        approved={{ version: 2, upperStages: 20, lowerStages: 18 }}
        onSent={() => {}}
        onClose={() => {}}
      />,
    );
    await user.type(screen.getByRole('textbox', { name: /Aligner worn now/ }), '25');
    await user.click(screen.getByRole('button', { name: 'Send scan' }));
    await waitFor(() => expect(screen.getByText('The aligner worn is a stage from 1 to 20')).toBeTruthy());
    expect(screen.getByText('Add the upper or the lower scan (or both)')).toBeTruthy();
    expect(api.changes()).toEqual([]);
  });
});
