import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { caseNumberingSystem, type CaseDetail as CaseDetailAnswer } from '@portal/contract';
import { routePath } from '@portal/contract/client';
import { IconArrowLeft, IconFileZip, IconPrinter } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { CaseStatusBadge } from '../../../../components/case-status-badge.tsx';
import { TimeInStatus } from '../../../../components/time-in-status.tsx';
import { turnaroundQueryOptions } from '../../../../lib/shared-queries.ts';
import { useCaseAttachments } from '../../api/get-case-attachments.ts';
import { useCaseTimeline } from '../../api/get-case-timeline.ts';
import { CaseAttachments } from './case-attachments.tsx';
import { CaseLabPanel } from './case-lab-panel.tsx';
import { CaseOrderList, CaseParentLink, OrderFromCaseMenu } from './case-orders.tsx';
import { caseDetailItems, caseFieldItems } from './case-fields.ts';
import { useToothNotation } from '../../../../lib/tooth-notation.ts';
import { ChangeStatusControl, ShippingDetails } from './case-status-panel.tsx';
import { CaseTimeline } from './case-timeline.tsx';
import { DetailList } from './detail-list.tsx';
import { ViewScansIn3d } from './view-scans-in-3d.tsx';

function Section({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Group justify="space-between" mb="sm">
        <Title order={3} size="h4">
          {title}
        </Title>
        {actions}
      </Group>
      {children}
    </Paper>
  );
}

/** One case as read: details, status and timeline, treatment instructions, records. */
export function CaseDetail({
  caseRow,
  showDoctor,
  canChangeStatus,
  canOrder,
  onBack,
}: {
  caseRow: CaseDetailAnswer;
  showDoctor: boolean;
  canChangeStatus: boolean;
  /** May order a refinement, retainer or replacement from it (docs/decisions/cases.md § Orders from a case). */
  canOrder: boolean;
  onBack: () => void;
}) {
  const { t } = useLingui();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const attachments = useCaseAttachments(caseRow.CaseId);
  const timeline = useCaseTimeline(caseRow.CaseId);
  // Teeth in the reader's notation (docs/decisions/tooth-notation.md); the case's until it is known.
  const notation = useToothNotation(caseNumberingSystem(caseRow.ToothNumberingSystem));
  const currentStatus = caseRow.Status;
  const trackingNo = caseRow.TrackingNo;
  // Staff (who may change the status) have the lab's targets: the due date.
  const turnaround = useQuery({ ...turnaroundQueryOptions(), enabled: canChangeStatus });

  // A new page: move focus and the view to the case's heading.
  useEffect(() => {
    window.scrollTo({ top: 0 });
    headingRef.current?.focus();
  }, []);

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Stack gap={2}>
          <Group gap="sm">
            <Title order={2} ref={headingRef} tabIndex={-1}>
              <Trans>Case {trackingNo}</Trans>
            </Title>
            <CaseStatusBadge status={currentStatus} />
          </Group>
          <CaseParentLink caseRow={caseRow} />
        </Stack>
        <Group gap="sm">
          {canOrder && <OrderFromCaseMenu caseId={caseRow.CaseId} />}
          <Button
            component="a"
            href={routePath('GET /api/case/:caseId/prescription.pdf', { caseId: caseRow.CaseId })}
            target="_blank"
            rel="noopener"
            variant="default"
            leftSection={<IconPrinter size={16} aria-hidden />}
          >
            <Trans>Print</Trans>
          </Button>
          <Button variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />} onClick={onBack}>
            <Trans>Back to list</Trans>
          </Button>
        </Group>
      </Group>
      <Section title={t`Case Details`}>
        <DetailList items={caseDetailItems(caseRow, showDoctor, notation)} />
      </Section>
      {caseRow.orders.length > 0 && (
        <Section title={t`Orders from this case`}>
          <CaseOrderList orders={caseRow.orders} />
        </Section>
      )}
      <Section title={t`Status`}>
        {canChangeStatus && (
          <ChangeStatusControl
            key={currentStatus}
            caseId={caseRow.CaseId}
            current={currentStatus}
            planState={caseRow.planState}
          />
        )}
        <TimeInStatus status={currentStatus} since={caseRow.StatusChangedAt} targets={turnaround.data?.targets} />
        {timeline.data && <ShippingDetails timeline={timeline.data} current={currentStatus} />}
        <Title order={4} size="h5" mt="md" mb="sm">
          <Trans>Timeline</Trans>
        </Title>
        {timeline.data ? (
          <CaseTimeline entries={timeline.data} system={notation} />
        ) : (
          <Text size="sm" c="dimmed">
            {timeline.isError ? <Trans>The timeline could not be loaded.</Trans> : <Trans>Loading...</Trans>}
          </Text>
        )}
      </Section>
      {canChangeStatus && (
        <Section title={t`Lab`}>
          <CaseLabPanel caseRow={caseRow} />
        </Section>
      )}
      <Section title={t`Treatment Instructions`}>
        <DetailList items={caseFieldItems(caseRow, 'treatment', notation)} />
      </Section>
      <Section
        title={t`Patient's Records`}
        actions={
          <Group gap="sm">
            {attachments.data && <ViewScansIn3d attachments={attachments.data} />}
            <Button
              component="a"
              href={routePath('GET /api/case/:caseId/files.zip', { caseId: caseRow.CaseId })}
              download
              variant="default"
              leftSection={<IconFileZip size={16} aria-hidden />}
            >
              <Trans>All files (ZIP)</Trans>
            </Button>
          </Group>
        }
      >
        <DetailList items={caseFieldItems(caseRow, 'records', notation)} />
        <Title order={4} size="h5" mt="md" mb="xs">
          <Trans>Attachments</Trans>
        </Title>
        {attachments.data ? (
          <CaseAttachments attachments={attachments.data} />
        ) : (
          <Text size="sm" c="dimmed">
            {attachments.isError ? <Trans>The attachments could not be loaded.</Trans> : <Trans>Loading...</Trans>}
          </Text>
        )}
      </Section>
    </Stack>
  );
}
