import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Skeleton, Stack, Text } from '@mantine/core';
import type { NumberingSystem } from '@portal/contract';
import { useEffect } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { RequirePage } from '../guards.tsx';
import { paths } from '../../config/paths.ts';
import { useCase } from '../../features/cases/api/get-case.ts';
import { CaseDetail } from '../../features/cases/components/case-detail/case-detail.tsx';
import { useMenu } from '../../features/menu/api/get-menu.ts';
import { CaseConversation } from '../../features/messages/components/case-conversation.tsx';
import { usePlans } from '../../features/plans/api/get-plans.ts';
import { PlanPanel } from '../../features/plans/components/plan-panel.tsx';
import { ViewOnPlanButton } from '../../features/plans/components/progress-overlay.tsx';
import { ProgressPanel } from '../../features/progress/components/progress-panel.tsx';
import { isDoctor, isDoctorSide, useSession, type Session } from '../../lib/session.ts';
import { caseViewerOf } from '../../lib/case-viewer.ts';

/** The case's tooth numbering; Universal when it chose none (the form's default). */
const numberingOf = (chosen: string | null | undefined): NumberingSystem =>
  chosen === 'FDI' || chosen === 'Palmer' ? chosen : 'Universal';

/**
 * /cases/:caseId, one case's own page: reached from the lists' View, from a status e-mail or
 * a shared link (after sign-in the guard returns here). "Back to list" goes back in history
 * when the portal brought the user here, to the dashboard otherwise.
 */
function CasePage({ caseId }: { caseId: number }) {
  const { t } = useLingui();
  const session = useSession() as Session;
  const navigate = useNavigate();
  const found = useCase(caseId);
  const plans = usePlans(caseId);
  const approvedPlan = plans.data?.find((plan) => plan.state === 'approved');
  const menu = useMenu(session);
  // Orders from a case: its doctor or their assistant (who see only their doctors' cases), or staff with the Add Case page.
  const canOrder = isDoctorSide(session) || menu.items.some((item) => item.url === paths.cases);
  // An address with a section (`#messages`, `#plan`: the inbox's links) opens the page there,
  // once the case is drawn; the browser's own jump came before the section existed.
  const { hash } = useLocation();
  const isDrawn = found.data !== undefined;
  useEffect(() => {
    if (isDrawn && hash) document.getElementById(hash.slice(1))?.scrollIntoView();
  }, [isDrawn, hash]);
  const back = () => {
    const cameFromPortal = (window.history.state as { idx?: number } | null)?.idx;
    if (cameFromPortal) void navigate(-1);
    else void navigate(paths.dashboard);
  };

  if (found.isError) {
    return (
      <Stack align="flex-start">
        <Alert color="red" title={t`Case not found`} role="alert">
          <Trans>This case does not exist or is not yours to see.</Trans>
        </Alert>
        <Button variant="default" onClick={() => void navigate(paths.dashboard)}>
          <Trans>Go to the dashboard</Trans>
        </Button>
      </Stack>
    );
  }
  if (!found.data) {
    // The case is on its way: its pane's shape, in place (no full-screen overlay for reads).
    return (
      <Stack gap="md" role="status" aria-label={t`Loading the case`}>
        <Text c="dimmed">
          <Trans>Loading...</Trans>
        </Text>
        <Skeleton height={34} width="40%" />
        <Skeleton height={160} />
        <Skeleton height={120} />
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      <CaseDetail
        key={caseId}
        caseRow={found.data}
        showDoctor={!isDoctor(session)}
        canChangeStatus={!isDoctorSide(session)}
        canOrder={canOrder}
        onBack={back}
      />
      <PlanPanel
        key={`plan-${caseId}`}
        caseId={caseId}
        viewer={caseViewerOf(session)}
        numbering={numberingOf(found.data.ToothNumberingSystem)}
        prescription={{
          moveTooth: found.data.MoveTooth,
          extractTooth: found.data.ExtractTooth,
          noAttachment: found.data.NoAttachment,
          ipr: found.data.IPRStage,
          iprPrescription: found.data.IPRPrescription,
          toothNumbering: found.data.ToothNumberingSystem,
        }}
      />
      <ProgressPanel
        key={`progress-${caseId}`}
        caseId={caseId}
        numbering={numberingOf(found.data.ToothNumberingSystem)}
        approved={
          approvedPlan
            ? {
                version: approvedPlan.version,
                upperStages: approvedPlan.summary.upperStages,
                lowerStages: approvedPlan.summary.lowerStages,
              }
            : null
        }
        canOrder={canOrder}
        resultActions={(scan) => (
          <ViewOnPlanButton caseId={caseId} scan={scan} numbering={numberingOf(found.data.ToothNumberingSystem)} />
        )}
      />
      <CaseConversation key={`messages-${caseId}`} caseId={caseId} />
    </Stack>
  );
}

export function Component() {
  const { t } = useLingui();
  const { caseId } = useParams();
  const id = Number(caseId);
  return (
    <RequirePage page="/dashboard" allowDoctor>
      {Number.isSafeInteger(id) && id > 0 ? (
        <CasePage caseId={id} />
      ) : (
        <Alert color="red" title={t`Case not found`} role="alert">
          <Trans>This is not the address of a case.</Trans>
        </Alert>
      )}
    </RequirePage>
  );
}
