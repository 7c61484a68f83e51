import { Badge, Button, Checkbox, Group, List, Modal, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import {
  planMessages,
  planStateLabels,
  type NumberingSystem,
  type PlanState,
  type PlanVersion,
} from '@portal/contract';
import { IconCheck, IconCube, IconMessageReport, IconShare, IconUpload } from '@tabler/icons-react';
import { startTransition, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { errorMessage, notifyError, notifySuccess } from '../../../lib/notify.ts';
import { attachmentsText } from '../lib/teeth.ts';
import { usePlans } from '../api/get-plans.ts';
import { useDecidePlan } from '../api/plan-changes.ts';
import { PlanSharesModal } from './plan-shares-modal.tsx';
import type { CaseViewer } from '../../../lib/case-viewer.ts';
import { PlanViewerModal } from './plan-viewer-modal.tsx';
import { UploadPlanForm } from './upload-plan-form.tsx';

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
      {planStateLabels[state]}
    </Badge>
  );
}

/** A decision's dialog: its form, then Cancel and the decision's own button. */
function DecisionDialog({
  title,
  submitLabel,
  color,
  isPending,
  onSubmit,
  onClose,
  children,
}: {
  title: string;
  submitLabel: string;
  color: string;
  isPending: boolean;
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
            Cancel
          </Button>
          <Button type="submit" color={color} loading={isPending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Request changes: the comment is required (the server says so too). */
function RequestChangesModal({ caseId, plan, onClose }: { caseId: number; plan: PlanVersion; onClose: () => void }) {
  const decide = useDecidePlan(caseId);
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string>();
  const submit = () => {
    if (!comment.trim()) {
      setError(planMessages.commentRequired);
      return;
    }
    decide.mutateAsync({ planId: plan.planId, comment }).then(
      (answer) => {
        notifySuccess(answer.message);
        onClose();
      },
      (failure: unknown) => {
        notifyError(errorMessage(failure, 'Something went wrong...'));
        if (failure instanceof ApiError) setError(failure.fieldErrors.comment);
      },
    );
  };
  return (
    <DecisionDialog
      title={`Request changes to version ${plan.version}`}
      submitLabel="Request changes"
      color="red.9"
      isPending={decide.isPending}
      onSubmit={submit}
      onClose={onClose}
    >
      <Textarea
        label="What should change"
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

/** What the doctor approves, named before they confirm: aligners per arch, IPR in all, attachments. */
function approvalFacts(summary: PlanVersion['summary']) {
  const iprMm = summary.ipr.reduce((sum, row) => sum + row.amountMm, 0);
  const contacts = summary.ipr.length;
  return [
    `Aligners: ${summary.upperStages} upper, ${summary.lowerStages} lower`,
    contacts === 0
      ? 'IPR: none'
      : `IPR: ${iprMm.toFixed(2)} mm in all, at ${contacts} ${contacts === 1 ? 'contact' : 'contacts'}`,
    summary.attachmentTeeth.length === 0
      ? 'Attachments: none'
      : `Attachments on ${summary.attachmentTeeth.length} ${summary.attachmentTeeth.length === 1 ? 'tooth' : 'teeth'}: ${attachmentsText(summary)}`,
  ];
}

/** Approve: the version's facts, and the doctor's required tick that they reviewed it in 3D (recorded with the approval). */
function ApproveModal({ caseId, plan, onClose }: { caseId: number; plan: PlanVersion; onClose: () => void }) {
  const decide = useDecidePlan(caseId);
  const [reviewed, setReviewed] = useState(false);
  const [error, setError] = useState<string>();
  const submit = () => {
    if (!reviewed) {
      setError(planMessages.reviewRequired);
      return;
    }
    decide.mutateAsync({ planId: plan.planId, reviewedIn3d: true }).then(
      (answer) => {
        notifySuccess(answer.message);
        onClose();
      },
      (failure: unknown) => notifyError(errorMessage(failure, 'Something went wrong...')),
    );
  };
  return (
    <DecisionDialog
      title={`Approve version ${plan.version}`}
      submitLabel={`Approve version ${plan.version}`}
      color="teal.9"
      isPending={decide.isPending}
      onSubmit={submit}
      onClose={onClose}
    >
      <Text size="sm">The lab makes the aligners of this version once you approve it.</Text>
      <List size="sm" spacing={2}>
        {approvalFacts(plan.summary).map((fact) => (
          <List.Item key={fact}>{fact}</List.Item>
        ))}
      </List>
      <Checkbox
        label="I have reviewed this plan in 3D"
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
  const isAwaiting = plan.state === 'awaiting_approval';
  const canDecide = viewer === 'doctor' && isAwaiting;
  const approveHint = `approve-hint-${plan.planId}`;
  return (
    <Paper withBorder p="sm" component="li" aria-label={`Version ${plan.version}`} style={{ listStyle: 'none' }}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Group gap="xs">
            <Text fw={600}>Version {plan.version}</Text>
            <PlanStateBadge state={plan.state} />
          </Group>
          <Text size="xs" c="dimmed">
            {plan.summary.upperStages} upper, {plan.summary.lowerStages} lower stages · uploaded by{' '}
            {plan.uploadedByName} {formatDateTime(plan.createdAt)}
          </Text>
          {plan.comment !== null && (
            <Text size="sm">
              Changes requested by {plan.decidedByName}: {plan.comment}
            </Text>
          )}
          {plan.comment === null && plan.decidedAt !== null && (
            <Text size="sm">
              Approved by {plan.decidedByName} {formatDateTime(plan.decidedAt)}
              {plan.reviewedIn3d && ', reviewed in 3D'}
            </Text>
          )}
          {viewer === 'assistant' && isAwaiting && (
            <Text size="sm" c="dimmed">
              Only the case&apos;s doctor can approve version {plan.version} or request changes.
            </Text>
          )}
          {canDecide && !wasViewed && (
            <Text size="sm" c="dimmed" id={approveHint}>
              Open version {plan.version} in 3D to approve it.
            </Text>
          )}
        </Stack>
        <Group gap="xs">
          <Button variant="default" leftSection={<IconCube size={16} aria-hidden />} onClick={onView}>
            View version {plan.version} in 3D
          </Button>
          {viewer === 'doctor' && (
            <Button variant="default" leftSection={<IconShare size={16} aria-hidden />} onClick={onShare}>
              Patient links
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
                Approve
              </Button>
              <Button
                color="red.9"
                variant="outline"
                leftSection={<IconMessageReport size={16} aria-hidden />}
                onClick={onRequestChanges}
              >
                Request changes
              </Button>
            </>
          )}
        </Group>
      </Group>
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
  numbering,
}: {
  caseId: number;
  viewer: CaseViewer;
  numbering: NumberingSystem;
}) {
  const plans = usePlans(caseId);
  const [isUploading, setIsUploading] = useState(false);
  const [viewing, setViewing] = useState<PlanVersion>();
  const [viewed, setViewed] = useState<ReadonlySet<number>>(new Set());
  const [approving, setApproving] = useState<PlanVersion>();
  const [requesting, setRequesting] = useState<PlanVersion>();
  const [sharing, setSharing] = useState<PlanVersion>();

  return (
    <Paper withBorder p="md" component="section" aria-label="Treatment Plan" id="plan">
      <Group justify="space-between" mb="sm">
        <Title order={3} size="h4">
          Treatment Plan
        </Title>
        {viewer === 'lab' && !isUploading && (
          <Button leftSection={<IconUpload size={16} aria-hidden />} onClick={() => setIsUploading(true)}>
            Upload a new version
          </Button>
        )}
      </Group>
      {isUploading && (
        <Stack mb="md">
          <UploadPlanForm caseId={caseId} onDone={() => setIsUploading(false)} />
        </Stack>
      )}
      {plans.data === undefined ? (
        <Text size="sm" c="dimmed">
          {plans.isError ? 'The treatment plan could not be loaded.' : 'Loading...'}
        </Text>
      ) : plans.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          {viewer !== 'lab'
            ? 'The lab has not uploaded a treatment plan yet.'
            : 'No treatment plan has been uploaded yet.'}
        </Text>
      ) : (
        <Stack component="ul" gap="xs" p={0} m={0} aria-label="Plan versions">
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
          plan={viewing}
          versions={plans.data ?? [viewing]}
          numbering={numbering}
          viewer={viewer}
          onClose={() => setViewing(undefined)}
        />
      )}
      {sharing && <PlanSharesModal plan={sharing} onClose={() => setSharing(undefined)} />}
      {approving && <ApproveModal caseId={caseId} plan={approving} onClose={() => setApproving(undefined)} />}
      {requesting && <RequestChangesModal caseId={caseId} plan={requesting} onClose={() => setRequesting(undefined)} />}
    </Paper>
  );
}
