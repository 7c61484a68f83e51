import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Text } from '@mantine/core';
import { caseOrderType, type NumberingSystem } from '@portal/contract';
import { useState } from 'react';
import { flushSync } from 'react-dom';
import { useNavigate, useSearchParams } from 'react-router';
import { RequirePage } from '../guards.tsx';
import { casePath, paths } from '../../config/paths.ts';
import { useCase } from '../../features/cases/api/get-case.ts';
import { CaseForm, type CaseOrderStart } from '../../features/cases/components/case-form/case-form.tsx';
import { useMenu } from '../../features/menu/api/get-menu.ts';
import { useProgressScan } from '../../features/progress/api/get-progress-scans.ts';
import { refinementInstructions } from '../../features/progress/lib/progress-words.ts';
import { formatDateOnly } from '../../lib/format-date.ts';
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
    return (
      <OrderForm
        parentCaseId={Number(from)}
        order={searchParams.get('order')}
        progressScan={searchParams.get('progressScan')}
        onSubmitted={onSubmitted}
      />
    );
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

const isId = (value: number) => Number.isSafeInteger(value) && value > 0;

function OrderForm({
  parentCaseId,
  order,
  progressScan,
  onSubmitted,
}: {
  parentCaseId: number;
  order: string | null;
  /** `&progressScan=<id>`: a refinement from that progress scan of the parent (docs/decisions/progress-scans.md). */
  progressScan: string | null;
  onSubmitted?: (created: { CaseId: number }) => void;
}) {
  const { t } = useLingui();
  const isValidId = isId(parentCaseId);
  const parent = useCase(isValidId ? parentCaseId : 0, { enabled: isValidId });
  const orderType = caseOrderType.safeParse(order);
  const progressScanId = progressScan === null ? null : Number(progressScan);
  const isFromScan = progressScanId !== null && isId(progressScanId) && isValidId;
  const scan = useProgressScan(parentCaseId, isFromScan ? progressScanId : 0, { enabled: isFromScan });
  if (
    !isValidId ||
    !orderType.success ||
    parent.isError ||
    (progressScanId !== null && (!isFromScan || orderType.data !== 'Refinement' || scan.isError))
  ) {
    return (
      <Alert color="red" title={t`This order cannot be made`} role="alert">
        <Trans>
          The case to order from or its progress scan was not found, or the order type is not Refinement, Retainer or
          Replacement.
        </Trans>
      </Alert>
    );
  }
  if (!parent.data || (isFromScan && !scan.data))
    return (
      <Text c="dimmed">
        <Trans>Loading...</Trans>
      </Text>
    );
  const start: CaseOrderStart = { parent: parent.data, orderType: orderType.data };
  if (isFromScan && scan.data) {
    const date = formatDateOnly(scan.data.createdAt);
    const stage = scan.data.stage;
    start.fromScan = {
      progressScanId: scan.data.progressScanId,
      arches: scan.data.sent,
      instructions: refinementInstructions(scan.data, numberingOf(parent.data.ToothNumberingSystem), date),
      label: t`progress scan of ${date} at aligner ${stage}`,
    };
  }
  return (
    <CaseForm
      key={`${parentCaseId}-${orderType.data}-${progressScanId ?? ''}`}
      order={start}
      onSubmitted={onSubmitted}
    />
  );
}

/** The case's tooth numbering; Universal when it chose none (the form's default). */
const numberingOf = (chosen: string | null | undefined): NumberingSystem =>
  chosen === 'FDI' || chosen === 'Palmer' ? chosen : 'Universal';

export function Component() {
  return (
    <RequirePage page="/cases" allowDoctor>
      <CasesPage />
    </RequirePage>
  );
}
