import { Alert, Text } from '@mantine/core';
import { caseOrderType } from '@portal/contract';
import { useState } from 'react';
import { flushSync } from 'react-dom';
import { useNavigate, useSearchParams } from 'react-router';
import { RequirePage } from '../guards.tsx';
import { casePath, paths } from '../../config/paths.ts';
import { useCase } from '../../features/cases/api/get-case.ts';
import { CaseForm, type CaseOrderStart } from '../../features/cases/components/case-form/case-form.tsx';
import { useMenu } from '../../features/menu/api/get-menu.ts';
import { isDoctorSide, useSession, type Session } from '../../lib/session.ts';

const draftIdOf = (value: string | null) => (value && /^\d{1,10}$/.test(value) ? Number(value) : null);

/**
 * The case form. A saved case opens its own page, tracking number shown, for those who may
 * read it: doctors and staff with the Dashboard page; staff with only Add Case stay on an
 * emptied form (docs/decisions/cases.md § The case page and its timeline). The address carries the
 * draft being written (`/cases?draft=12`), so a reload opens it again (docs/decisions/case-form.md § Drafts).
 * `?from=<caseId>&order=Refinement` opens an order from that case, prefilled from it and not
 * kept as a draft (docs/decisions/cases.md § Orders from a case).
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
  const mayReadCases = isDoctorSide(session) || menu.items.some((item) => item.url === paths.dashboard);
  const onSubmitted = mayReadCases
    ? (created: { CaseId: number }) => void navigate(casePath(created.CaseId))
    : undefined;
  const from = searchParams.get('from');
  if (from !== null) {
    return <OrderForm parentCaseId={Number(from)} order={searchParams.get('order')} onSubmitted={onSubmitted} />;
  }
  return (
    <CaseForm
      key={opened.generation}
      draftId={opened.draftId}
      onDraftCreated={(draftId) => {
        // Committed before the address changes, so naming its own draft does not reopen the form.
        flushSync(() => setOpened((now) => ({ ...now, own: draftId })));
        setSearchParams({ draft: String(draftId) }, { replace: true });
      }}
      onSubmitted={onSubmitted}
    />
  );
}

function OrderForm({
  parentCaseId,
  order,
  onSubmitted,
}: {
  parentCaseId: number;
  order: string | null;
  onSubmitted?: (created: { CaseId: number }) => void;
}) {
  const isValidId = Number.isSafeInteger(parentCaseId) && parentCaseId > 0;
  const parent = useCase(isValidId ? parentCaseId : 0, { enabled: isValidId });
  const orderType = caseOrderType.safeParse(order);
  if (!isValidId || !orderType.success || parent.isError) {
    return (
      <Alert color="red" title="This order cannot be made" role="alert">
        The case to order from was not found, or the order type is not Refinement, Retainer or Replacement.
      </Alert>
    );
  }
  if (!parent.data) return <Text c="dimmed">Loading...</Text>;
  const start: CaseOrderStart = { parent: parent.data, orderType: orderType.data };
  return <CaseForm key={`${parentCaseId}-${orderType.data}`} order={start} onSubmitted={onSubmitted} />;
}

export function Component() {
  return (
    <RequirePage page="/cases" allowDoctor>
      <CasesPage />
    </RequirePage>
  );
}
