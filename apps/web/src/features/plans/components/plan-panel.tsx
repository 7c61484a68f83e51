import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Checkbox, Group, List, Modal, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import {
  attachmentStage,
  fdiToUniversal,
  planMessages,
  planStateLabels,
  toothLabel,
  type NumberingSystem,
  type PlanPrescription,
  type PlanState,
  type PlanVersion,
} from '@portal/contract';
import { IconCheck, IconCube, IconMessageReport, IconShare, IconUpload } from '@tabler/icons-react';
import { startTransition, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { errorMessage, notifyError, notifySuccess } from '../../../lib/notify.ts';
import { serverText } from '../../../lib/server-text.ts';
import { formatDecimal } from '../../../lib/format-number.ts';
import { usePlans } from '../api/get-plans.ts';
import { useDecidePlan } from '../api/plan-changes.ts';
import { PlanSharesModal } from './plan-shares-modal.tsx';
import type { CaseViewer } from '../../../lib/case-viewer.ts';
import { PlanFindings } from './plan-findings.tsx';
import { PlanViewerModal } from './plan-viewer-modal.tsx';
import { UploadPlanForm } from './upload-plan-form.tsx';
import { useToothNotation } from '../../../lib/tooth-notation.ts';

// Shades with at least 4.5:1 contrast to white text.
const stateColors: Record<PlanState, string> = {
  awaiting_approval: 'indigo.9',
  changes_requested: 'red.9',
  approved: 'teal.9',
  superseded: 'gray.7',
};

function PlanStateBadge({ state }: { state: PlanState }) {
  return (
    <Badge color={stateColors[state]} variant="filled" radius="sm">
      {serverText(planStateLabels[state])}
    </Badge>
  );
}

/** A decision's dialog: its form, then Cancel and the decision's own button. */
function DecisionDialog({
  title,
  submitLabel,
  color,
  isPending,
  isDisabled = false,
  onSubmit,
  onClose,
  children,
}: {
  title: string;
  submitLabel: string;
  color: string;
  isPending: boolean;
  isDisabled?: boolean;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    onSubmit();
  };
  return (
    <Modal opened onClose={onClose} title={title} centered>
      <Stack component="form" gap="sm" onSubmit={submit}>
        {children}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" color={color} loading={isPending} disabled={isDisabled}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Request changes: the comment is required (the server says so too). */
function RequestChangesModal({ caseId, plan, onClose }: { caseId: number; plan: PlanVersion; onClose: () => void }) {
  const { t } = useLingui();
  const version = plan.version;
  const decide = useDecidePlan(caseId);
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string>();
  const submit = () => {
    if (!comment.trim()) {
      setError(serverText(planMessages.commentRequired));
      return;
    }
    decide.mutateAsync({ planId: plan.planId, comment }).then(
      () => {
        // The server's sentence, in the language shown.
        notifySuccess(t`Changes requested on plan version ${version}`);
        onClose();
      },
      (failure: unknown) => {
        notifyError(errorMessage(failure, t`Something went wrong...`));
        if (failure instanceof ApiError) setError(serverText(failure.fieldErrors.comment));
      },
    );
  };
  return (
    <DecisionDialog
      title={t`Request changes to version ${version}`}
      submitLabel={t`Request changes`}
      color="red.9"
      isPending={decide.isPending}
      onSubmit={submit}
      onClose={onClose}
    >
      <Textarea
        label={t`What should change`}
        withAsterisk
        autosize
        minRows={3}
        maxLength={5000}
        value={comment}
        error={error}
        onChange={(event) => {
          setComment(event.currentTarget.value);
          setError(undefined);
        }}
        data-autofocus
      />
    </DecisionDialog>
  );
}

/**
 * What the doctor approves, named before they confirm: aligners per arch, IPR in all,
 * attachments, their teeth in the case's numbering, as the findings beside them name teeth.
 */
function ApprovalFacts({ summary, numbering }: { summary: PlanVersion['summary']; numbering: NumberingSystem }) {
  const { t } = useLingui();
  const tooth = (fdi: number) => {
    const universal = fdiToUniversal(fdi);
    return universal === undefined ? String(fdi) : toothLabel(universal, numbering);
  };
  const attachments = summary.attachmentTeeth
    .map((fdi) => {
      const stage = attachmentStage(summary, fdi);
      const name = tooth(fdi);
      return stage === 0 ? name : t`${name} (stage ${stage})`;
    })
    .join(', ');
  const iprMm = formatDecimal(
    summary.ipr.reduce((sum, row) => sum + row.amountMm, 0),
    2,
  );
  const contacts = summary.ipr.length;
  const teeth = summary.attachmentTeeth.length;
  const { upperStages, lowerStages } = summary;
  const facts = [
    t`Aligners: ${upperStages} upper, ${lowerStages} lower`,
    contacts === 0
      ? t`IPR: none`
      : t`IPR: ${iprMm} mm in all, at ${plural(contacts, { one: '# contact', other: '# contacts' })}`,
    teeth === 0
      ? t`Attachments: none`
      : t`Attachments on ${plural(teeth, { one: '# tooth', other: '# teeth' })}: ${attachments}`,
  ];
  return (
    <List size="sm" spacing={2}>
      {facts.map((fact) => (
        <List.Item key={fact}>{fact}</List.Item>
      ))}
    </List>
  );
}

/**
 * Approve: the version's facts, its findings against the prescription, and the doctor's
 * required ticks that they reviewed it in 3D and (when it has findings, or could not be
 * checked in full) that they acknowledge them; both are recorded with the approval.
 */
function ApproveModal({
  caseId,
  plan,
  numbering,
  onClose,
}: {
  caseId: number;
  plan: PlanVersion;
  numbering: NumberingSystem;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const version = plan.version;
  const findingCount = plan.findings.length;
  const decide = useDecidePlan(caseId);
  const [reviewed, setReviewed] = useState(false);
  const [acknowledged, setAcknowledged] = useState(false);
  const [error, setError] = useState<string>();
  const [ackError, setAckError] = useState<string>();
  const isChecking = plan.findingsCheck.state === 'pending';
  const needsAcknowledgement = plan.findings.length > 0 || plan.findingsCheck.state === 'partial';
  const submit = () => {
    if (!reviewed) setError(serverText(planMessages.reviewRequired));
    if (needsAcknowledgement && !acknowledged) setAckError(serverText(planMessages.findingsNotAcknowledged));
    if (!reviewed || (needsAcknowledgement && !acknowledged)) return;
    decide
      .mutateAsync({
        planId: plan.planId,
        reviewedIn3d: true,
        ...(needsAcknowledgement && { findingsAcknowledged: true }),
      })
      .then(
        () => {
          notifySuccess(t`Plan version ${version} approved`);
          onClose();
        },
        (failure: unknown) => {
          notifyError(errorMessage(failure, t`Something went wrong...`));
          if (failure instanceof ApiError) setAckError(serverText(failure.fieldErrors.findingsAcknowledged));
        },
      );
  };
  return (
    <DecisionDialog
      title={t`Approve version ${version}`}
      submitLabel={t`Approve version ${version}`}
      color="teal.9"
      isPending={decide.isPending}
      isDisabled={isChecking}
      onSubmit={submit}
      onClose={onClose}
    >
      <Text size="sm">
        <Trans>The lab makes the aligners of this version once you approve it.</Trans>
      </Text>
      <ApprovalFacts summary={plan.summary} numbering={numbering} />
      {isChecking && (
        <Text size="sm" role="status">
          {serverText(planMessages.checkPending)}.
        </Text>
      )}
      <PlanFindings plan={plan} />
      {needsAcknowledgement && (
        <Checkbox
          label={
            findingCount > 0
              ? plural(findingCount, {
                  one: 'I have read the finding and approve this version despite it',
                  other: 'I have read the # findings and approve this version despite them',
                })
              : t`I know this version could not be checked in full and approve it`
          }
          checked={acknowledged}
          error={ackError}
          onChange={(event) => {
            setAcknowledged(event.currentTarget.checked);
            setAckError(undefined);
          }}
        />
      )}
      <Checkbox
        label={t`I have reviewed this plan in 3D`}
        checked={reviewed}
        error={error}
        onChange={(event) => {
          setReviewed(event.currentTarget.checked);
          setError(undefined);
        }}
        data-autofocus
      />
    </DecisionDialog>
  );
}

function VersionRow({
  plan,
  viewer,
  wasViewed,
  onView,
  onApprove,
  onRequestChanges,
  onShare,
}: {
  plan: PlanVersion;
  viewer: CaseViewer;
  /** Opened in the 3D viewer on this page: Approve waits for it. */
  wasViewed: boolean;
  onView: () => void;
  onApprove: () => void;
  onRequestChanges: () => void;
  onShare: () => void;
}) {
  const { t } = useLingui();
  const { version, uploadedByName, decidedByName, comment } = plan;
  const { upperStages, lowerStages, findingsReason } = plan.summary;
  const createdAt = formatDateTime(plan.createdAt);
  const decidedAt = plan.decidedAt === null ? '' : formatDateTime(plan.decidedAt);
  const isAwaiting = plan.state === 'awaiting_approval';
  const canDecide = viewer === 'doctor' && isAwaiting;
  const approveHint = `approve-hint-${plan.planId}`;
  return (
    <Paper withBorder p="sm" component="li" aria-label={t`Version ${version}`} style={{ listStyle: 'none' }}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Group gap="xs">
            <Text fw={600}>
              <Trans>Version {version}</Trans>
            </Text>
            <PlanStateBadge state={plan.state} />
          </Group>
          <Text size="xs" c="dimmed">
            <Trans>
              {upperStages} upper, {lowerStages} lower stages · uploaded by {uploadedByName} {createdAt}
            </Trans>
          </Text>
          {plan.comment !== null && (
            <Text size="sm">
              <Trans>
                Changes requested by {decidedByName}: {comment}
              </Trans>
            </Text>
          )}
          {plan.comment === null && plan.decidedAt !== null && (
            <Text size="sm">
              {plan.reviewedIn3d ? (
                <Trans>
                  Approved by {decidedByName} {decidedAt}, reviewed in 3D
                </Trans>
              ) : (
                <Trans>
                  Approved by {decidedByName} {decidedAt}
                </Trans>
              )}
            </Text>
          )}
          {viewer === 'assistant' && isAwaiting && (
            <Text size="sm" c="dimmed">
              <Trans>Only the case&apos;s doctor can approve version {version} or request changes.</Trans>
            </Text>
          )}
          {plan.summary.findingsReason && plan.findings.length === 0 && plan.findingsCheck.state === 'complete' && (
            <Text size="sm">
              <Trans>The lab&apos;s note on the prescription: {findingsReason}</Trans>
            </Text>
          )}
          {canDecide && !wasViewed && (
            <Text size="sm" c="dimmed" id={approveHint}>
              <Trans>Open version {version} in 3D to approve it.</Trans>
            </Text>
          )}
        </Stack>
        <Group gap="xs">
          <Button variant="default" leftSection={<IconCube size={16} aria-hidden />} onClick={onView}>
            <Trans>View version {version} in 3D</Trans>
          </Button>
          {/* A replaced version shows the patient nothing (the server refuses its links too). */}
          {viewer === 'doctor' && plan.state !== 'superseded' && (
            <Button variant="default" leftSection={<IconShare size={16} aria-hidden />} onClick={onShare}>
              <Trans>Patient links</Trans>
            </Button>
          )}
          {canDecide && (
            <>
              <Button
                color="teal.9"
                leftSection={<IconCheck size={16} aria-hidden />}
                disabled={!wasViewed}
                aria-describedby={wasViewed ? undefined : approveHint}
                onClick={onApprove}
              >
                <Trans>Approve</Trans>
              </Button>
              <Button
                color="red.9"
                variant="outline"
                leftSection={<IconMessageReport size={16} aria-hidden />}
                onClick={onRequestChanges}
              >
                <Trans>Request changes</Trans>
              </Button>
            </>
          )}
        </Group>
      </Group>
      <Stack mt={plan.findings.length > 0 || plan.findingsCheck.state !== 'complete' ? 'xs' : 0} gap={0}>
        <PlanFindings plan={plan} />
      </Stack>
    </Paper>
  );
}

/**
 * The case page's treatment plan: every version, newest first, with its state; staff upload
 * a new version, the case's doctor approves the one awaiting approval or requests changes
 * (docs/decisions/plans.md § Treatment plans). Live plan events refresh the list. Teeth are named
 * in the case's numbering system.
 */
export function PlanPanel({
  caseId,
  viewer,
  numbering: caseNumbering,
  prescription,
}: {
  caseId: number;
  viewer: CaseViewer;
  numbering: NumberingSystem;
  /** What each version is checked against (plan-findings.tsx): the upload form checks the summary as it is typed. */
  prescription: PlanPrescription;
}) {
  // Teeth in the reader's notation (docs/decisions/tooth-notation.md); the case's until it is known.
  const numbering = useToothNotation(caseNumbering);
  const { t } = useLingui();
  const plans = usePlans(caseId);
  const [isUploading, setIsUploading] = useState(false);
  const [viewing, setViewing] = useState<PlanVersion>();
  const [viewed, setViewed] = useState<ReadonlySet<number>>(new Set());
  const [approving, setApproving] = useState<PlanVersion>();
  const [requesting, setRequesting] = useState<PlanVersion>();
  const [sharing, setSharing] = useState<PlanVersion>();

  return (
    <Paper withBorder p="md" component="section" aria-label={t`Treatment Plan`} id="plan">
      <Group justify="space-between" mb="sm">
        <Title order={3} size="h4">
          <Trans>Treatment Plan</Trans>
        </Title>
        {viewer === 'lab' && !isUploading && (
          <Button leftSection={<IconUpload size={16} aria-hidden />} onClick={() => setIsUploading(true)}>
            <Trans>Upload a new version</Trans>
          </Button>
        )}
      </Group>
      {isUploading && (
        <Stack mb="md">
          <UploadPlanForm caseId={caseId} prescription={prescription} onDone={() => setIsUploading(false)} />
        </Stack>
      )}
      {plans.data === undefined ? (
        <Text size="sm" c="dimmed">
          {plans.isError ? t`The treatment plan could not be loaded.` : t`Loading...`}
        </Text>
      ) : plans.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          {viewer !== 'lab'
            ? t`The lab has not uploaded a treatment plan yet.`
            : t`No treatment plan has been uploaded yet.`}
        </Text>
      ) : (
        <Stack component="ul" gap="xs" p={0} m={0} aria-label={t`Plan versions`}>
          {plans.data.map((plan) => (
            <VersionRow
              key={plan.planId}
              plan={plan}
              viewer={viewer}
              wasViewed={viewed.has(plan.planId)}
              onView={() => {
                // A transition: the viewer's first render runs in a task of its own after the
                // click's, not within it (its two steps: plan-viewer-modal.tsx useSecondStep).
                startTransition(() => setViewing(plan));
                setViewed((before) => new Set(before).add(plan.planId));
              }}
              onApprove={() => setApproving(plan)}
              onRequestChanges={() => setRequesting(plan)}
              onShare={() => setSharing(plan)}
            />
          ))}
        </Stack>
      )}
      {viewing && (
        <PlanViewerModal
          key={viewing.planId}
          plan={viewing}
          versions={plans.data ?? [viewing]}
          numbering={numbering}
          viewer={viewer}
          onClose={() => setViewing(undefined)}
        />
      )}
      {sharing && <PlanSharesModal plan={sharing} onClose={() => setSharing(undefined)} />}
      {approving && (
        <ApproveModal
          caseId={caseId}
          // The version as last read: its check may have completed since the dialog opened.
          plan={plans.data?.find((plan) => plan.planId === approving.planId) ?? approving}
          numbering={numbering}
          onClose={() => setApproving(undefined)}
        />
      )}
      {requesting && <RequestChangesModal caseId={caseId} plan={requesting} onClose={() => setRequesting(undefined)} />}
    </Paper>
  );
}
