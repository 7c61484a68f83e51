// @vitest-environment happy-dom
import type { CaseRow } from '@portal/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi, type Mock } from 'vitest';
import type { Session } from '../../../lib/session.ts';
import { fakeApi } from '../../../testing/fake-api.ts';
import { renderWithApp } from '../../../testing/render.tsx';
import { CaseDashboard } from './case-dashboard.tsx';

const session = (userType: Session['userType'], roleId: number): Session => ({
  token: 't',
  username: 'someone',
  userId: 7,
  userType,
  createdAt: '2026-01-01T00:00:00.000Z',
  profilePic: null,
  roleId,
  exp: 0,
});

const row = (CaseId: number, OffTrack: boolean) =>
  ({
    CaseId,
    TrackingNo: `AL-2612-00000${CaseId}`,
    FirstName: 'Ada',
    LastName: `Patient${CaseId}`,
    DOB: '2001-03-05',
    doctorname: 'Grace Hopper',
    Status: 'inprogress',
    CreatedAt: '2026-12-01T10:00:00.000Z',
    DoctorUserId: 7,
    StatusChangedAt: '2026-12-01T10:00:00.000Z',
    AssigneeUserId: null,
    AssigneeName: null,
    OffTrack,
  }) as unknown as CaseRow;

const listPath = (userId: number) => `GET /api/case/get_cases_by_status/all/${userId}`;

/** The case lists' queries sent so far (the fake API records paths only). */
const listQueries = () =>
  (fetch as unknown as Mock).mock.calls
    .map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((url) => url.pathname.startsWith('/api/case/get_cases_by_status/'))
    .map((url) => url.searchParams);

function answerList(userId: number) {
  return {
    // Only the off-track case when the filter is on, as the server answers.
    [listPath(userId)]: () => {
      const query = listQueries().at(-1)!;
      return query.get('offTrack') === 'true' ? [row(1, true)] : [row(1, true), row(2, false)];
    },
  };
}

describe('the case dashboard', () => {
  it('marks a case whose latest progress scan is off track, and the lab filters on it from the address', async () => {
    fakeApi(answerList(0));
    const { user } = renderWithApp(<CaseDashboard session={session('Web', 1)} onView={vi.fn()} />, {
      path: '/dashboard',
    });
    const offTrackRow = (await screen.findByText('AL-2612-000001')).closest('tr')!;
    expect(within(offTrackRow).getByText('Off track')).toBeTruthy();
    const onTrackRow = screen.getByText('AL-2612-000002').closest('tr')!;
    expect(within(onTrackRow).queryByText('Off track')).toBeNull();
    expect(listQueries().at(-1)!.get('offTrack')).toBeNull();

    await user.click(screen.getByRole('switch', { name: 'Off track only' }));
    await vi.waitFor(() => expect(listQueries().at(-1)!.get('offTrack')).toBe('true'));
    await vi.waitFor(() => expect(screen.queryByText('AL-2612-000002')).toBeNull());
    expect(screen.getByText('AL-2612-000001')).toBeTruthy();
  });

  it('offers the filter to a doctor too, on their own cases, and reads it from a shared link', async () => {
    fakeApi(answerList(7));
    renderWithApp(<CaseDashboard session={session('Doctor', 2)} onView={vi.fn()} />, {
      path: '/dashboard?offTrack=true',
    });
    expect(await screen.findByText('AL-2612-000001')).toBeTruthy();
    expect(listQueries().every((query) => query.get('offTrack') === 'true')).toBe(true);
    expect((screen.getByRole('switch', { name: 'Off track only' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByText('AL-2612-000002')).toBeNull();
  });
});
