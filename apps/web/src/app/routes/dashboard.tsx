import { useNavigate } from 'react-router';
import { RequirePage } from '../guards.tsx';
import { casePath } from '../../config/paths.ts';
import { CaseDashboard } from '../../features/dashboard/components/case-dashboard.tsx';
import { useSession, type Session } from '../../lib/session.ts';

/** Tiles and case list; View opens the case's own page (/cases/:caseId). */
function DashboardPage() {
  const session = useSession() as Session;
  const navigate = useNavigate();
  return <CaseDashboard session={session} onView={(caseRow) => void navigate(casePath(caseRow.CaseId))} />;
}

export function Component() {
  return (
    <RequirePage page="/dashboard" allowDoctor>
      <DashboardPage />
    </RequirePage>
  );
}
