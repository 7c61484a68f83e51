import { Title } from '@mantine/core';
import { isPlanState, type CaseRow, type CaseStatusFilter } from '@portal/contract';
import { useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/page-title.tsx';
import { isDoctor, type Session } from '../../../lib/session.ts';
import { useCaseStats } from '../api/get-case-stats.ts';
import { CaseList } from './case-list.tsx';
import { StatTiles, statusFilterLabel, type CaseFilter } from './stat-tiles.tsx';

/** Stat tiles and the case list; a doctor sees their own cases, staff every case with its doctor. */
export function CaseDashboard({
  session,
  onView,
  drafts,
}: {
  session: Session;
  onView: (caseRow: CaseRow) => void;
  /** Shown between the tiles and the case list: the caller's case drafts. */
  drafts?: ReactNode;
}) {
  const isStaff = !isDoctor(session);
  const userId = isStaff ? 0 : session.userId;
  const [status, setStatus] = useState<CaseStatusFilter>('all');
  // A plan tile's filter lives in the address (?plan=awaiting_approval), so Back and Reload keep it.
  const [searchParams, setSearchParams] = useSearchParams();
  const plan = searchParams.get('plan');
  const planState = isPlanState(plan) ? plan : undefined;
  const filter: CaseFilter = planState ? { status: 'all', planState } : { status };
  const stats = useCaseStats(userId);
  const select = (next: CaseFilter) => {
    setStatus(next.status);
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current);
        if (next.planState) params.set('plan', next.planState);
        else params.delete('plan');
        return params;
      },
      { replace: !next.planState && !planState },
    );
  };

  return (
    <>
      <PageTitle title="Dashboard" />
      <StatTiles stats={stats.data} selected={filter} onSelect={select} isStaff={isStaff} />
      {drafts}
      <Title order={3} size="h4" mb="xs">
        {statusFilterLabel(filter)}
      </Title>
      <CaseList
        userId={userId}
        status={filter.status}
        planState={filter.planState}
        showDoctor={isStaff}
        onView={onView}
      />
    </>
  );
}
