import { Alert, Text } from '@mantine/core';
import { caseOrderType } from '@portal/contract';
import { useNavigate, useSearchParams } from 'react-router';
import { RequirePage } from '../guards.tsx';
import { casePath, paths } from '../../config/paths.ts';
import { useCase } from '../../features/cases/api/get-case.ts';
import { CaseForm, type CaseOrderStart } from '../../features/cases/components/case-form/case-form.tsx';
import { useMenu } from '../../features/menu/api/get-menu.ts';
import { isDoctor, useSession, type Session } from '../../lib/session.ts';

/**
 * The case form. A saved case opens its own page, tracking number shown, for those who may
 * read it: doctors and staff with the Dashboard page; staff with only Add Case stay on an
 * emptied form (docs/decisions.md § The case page and its timeline). `?from=<caseId>&order=
 * Refinement` opens an order from that case, prefilled from it.
 * See docs/decisions.md § Orders from a case.
 */
function CasesPage() {
  const session = useSession() as Session;
  const menu = useMenu(session);
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const mayReadCases = isDoctor(session) || menu.items.some((item) => item.url === paths.dashboard);
  const onSubmitted = mayReadCases
    ? (created: { CaseId: number }) => void navigate(casePath(created.CaseId))
    : undefined;
  const from = search.get('from');
  if (from === null) return <CaseForm onSubmitted={onSubmitted} />;
  return <OrderForm parentCaseId={Number(from)} order={search.get('order')} onSubmitted={onSubmitted} />;
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
