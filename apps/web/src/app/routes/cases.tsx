import { useNavigate } from 'react-router';
import { RequirePage } from '../guards.tsx';
import { casePath, paths } from '../../config/paths.ts';
import { CaseForm } from '../../features/cases/components/case-form/case-form.tsx';
import { useMenu } from '../../features/menu/api/get-menu.ts';
import { isDoctor, useSession, type Session } from '../../lib/session.ts';

/**
 * The case form. A saved case opens its own page, tracking number shown, for those who may
 * read it: doctors and staff with the Dashboard page; staff with only Add Case stay on an
 * emptied form (docs/decisions.md § The case page and its timeline).
 */
function CasesPage() {
  const session = useSession() as Session;
  const menu = useMenu(session);
  const navigate = useNavigate();
  const mayReadCases = isDoctor(session) || menu.items.some((item) => item.url === paths.dashboard);
  return <CaseForm onSubmitted={mayReadCases ? (created) => void navigate(casePath(created.CaseId)) : undefined} />;
}

export function Component() {
  return (
    <RequirePage page="/cases" allowDoctor>
      <CasesPage />
    </RequirePage>
  );
}
