import { useNavigate } from 'react-router';
import { RequirePage } from '../guards.tsx';
import { casePath, paths } from '../../config/paths.ts';
import { CaseDraftList } from '../../features/cases/components/case-drafts/case-draft-list.tsx';
import { CaseDashboard } from '../../features/dashboard/components/case-dashboard.tsx';
import { useMenu } from '../../features/menu/api/get-menu.ts';
import { isDoctorSide, useSession, type Session } from '../../lib/session.ts';

/**
 * Tiles, the caller's case drafts (for those who may add cases) and the case list; View
 * opens the case's own page (/cases/:caseId).
 */
function DashboardPage() {
  const session = useSession() as Session;
  const menu = useMenu(session);
  const navigate = useNavigate();
  const mayAddCases = isDoctorSide(session) || menu.items.some((item) => item.url === paths.cases);
  return (
    <CaseDashboard
      session={session}
      drafts={<CaseDraftList enabled={mayAddCases} />}
      onView={(caseRow) => void navigate(casePath(caseRow.CaseId))}
    />
  );
}

export function Component() {
  return (
    <RequirePage page="/dashboard" allowDoctor>
      <DashboardPage />
    </RequirePage>
  );
}
