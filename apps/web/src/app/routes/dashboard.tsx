import { Box } from '@mantine/core';
import type { CaseRow } from '@portal/contract';
import { useEffect, useRef, useState } from 'react';
import { RequirePage } from '../guards.tsx';
import { CaseDetail } from '../../features/cases/components/case-detail/case-detail.tsx';
import { CaseDashboard } from '../../features/dashboard/components/case-dashboard.tsx';
import { isDoctor, useSession, type Session } from '../../lib/session.ts';

/**
 * Tiles and case list, or one case in place of them. The list stays mounted (hidden) so
 * 'Back to list' returns to the same filter, search and page, and focus to the View button.
 */
function DashboardPage() {
  const session = useSession() as Session;
  const [viewing, setViewing] = useState<CaseRow | null>(null);
  const returnFocusTo = useRef<HTMLElement | null>(null);

  useEffect(() => {
    if (viewing === null) returnFocusTo.current?.focus();
  }, [viewing]);

  return (
    <>
      <Box hidden={viewing !== null}>
        <CaseDashboard
          session={session}
          onView={(caseRow) => {
            returnFocusTo.current = document.activeElement as HTMLElement | null;
            setViewing(caseRow);
          }}
        />
      </Box>
      {viewing && (
        <CaseDetail
          key={viewing.CaseId}
          caseRow={viewing}
          showDoctor={!isDoctor(session)}
          canChangeStatus={!isDoctor(session)}
          onBack={() => setViewing(null)}
        />
      )}
    </>
  );
}

export function Component() {
  return (
    <RequirePage page="/dashboard" allowDoctor>
      <DashboardPage />
    </RequirePage>
  );
}
