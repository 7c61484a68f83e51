import { Title } from '@mantine/core';
import type { CaseRow, CaseStatusFilter } from '@portal/contract';
import { useState } from 'react';
import { PageTitle } from '../../../components/page-title.tsx';
import { isDoctor, type Session } from '../../../lib/session.ts';
import { useCaseStats } from '../api/get-case-stats.ts';
import { CaseList } from './case-list.tsx';
import { StatTiles, statusFilterLabel } from './stat-tiles.tsx';

/** Stat tiles and the case list; a doctor sees their own cases, staff every case with its doctor. */
export function CaseDashboard({ session, onView }: { session: Session; onView: (caseRow: CaseRow) => void }) {
  const isStaff = !isDoctor(session);
  const userId = isStaff ? 0 : session.userId;
  const [status, setStatus] = useState<CaseStatusFilter>('all');
  const stats = useCaseStats(userId);

  return (
    <>
      <PageTitle title="Dashboard" />
      <StatTiles stats={stats.data} selected={status} onSelect={setStatus} isStaff={isStaff} />
      <Title order={3} size="h4" mb="xs">
        {statusFilterLabel(status)}
      </Title>
      <CaseList userId={userId} status={status} showDoctor={isStaff} onView={onView} />
    </>
  );
}
