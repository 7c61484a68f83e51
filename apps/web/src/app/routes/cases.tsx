import { useState } from 'react';
import { flushSync } from 'react-dom';
import { useNavigate, useSearchParams } from 'react-router';
import { RequirePage } from '../guards.tsx';
import { casePath, paths } from '../../config/paths.ts';
import { CaseForm } from '../../features/cases/components/case-form/case-form.tsx';
import { useMenu } from '../../features/menu/api/get-menu.ts';
import { isDoctor, useSession, type Session } from '../../lib/session.ts';

const draftIdOf = (value: string | null) => (value && /^\d{1,10}$/.test(value) ? Number(value) : null);

/**
 * The case form. A saved case opens its own page, tracking number shown, for those who may
 * read it: doctors and staff with the Dashboard page; staff with only Add Case stay on an
 * emptied form (docs/decisions.md § The case page and its timeline). The address carries the
 * draft being written (`/cases?draft=12`), so a reload opens it again (docs/decisions.md § Drafts).
 */
function CasesPage() {
  const session = useSession() as Session;
  const menu = useMenu(session);
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = draftIdOf(searchParams.get('draft'));
  // Another address (Add Case, another draft's Continue) opens a new form; the form naming
  // the draft it just made (`own`) does not.
  const [opened, setOpened] = useState({
    generation: 0,
    draftId: requested,
    address: requested,
    own: null as number | null,
  });
  if (requested !== opened.address) {
    const isOwn = requested !== null && requested === opened.own;
    setOpened(
      isOwn
        ? { ...opened, address: requested }
        : { generation: opened.generation + 1, draftId: requested, address: requested, own: null },
    );
  }
  const mayReadCases = isDoctor(session) || menu.items.some((item) => item.url === paths.dashboard);
  return (
    <CaseForm
      key={opened.generation}
      draftId={opened.draftId}
      onDraftCreated={(draftId) => {
        // Committed before the address changes, so naming its own draft does not reopen the form.
        flushSync(() => setOpened((now) => ({ ...now, own: draftId })));
        setSearchParams({ draft: String(draftId) }, { replace: true });
      }}
      onSubmitted={mayReadCases ? (created) => void navigate(casePath(created.CaseId)) : undefined}
    />
  );
}

export function Component() {
  return (
    <RequirePage page="/cases" allowDoctor>
      <CasesPage />
    </RequirePage>
  );
}
