import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Group, Modal, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import {
  caseStatuses,
  caseStatusLabels,
  caseStatusMessages,
  courierTrackingUrl,
  isBackwardMove,
  needsApprovedPlan,
  type CaseStatus,
  type PlanState,
  type CaseTimelineEntry,
} from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../../lib/api-client.ts';
import { errorMessage, notifyError, notifySuccess } from '../../../../lib/notify.ts';
import { serverFieldErrors, serverText } from '../../../../lib/server-text.ts';
import { couriersQueryOptions } from '../../../../lib/shared-queries.ts';
import { useUpdateCaseStatus } from '../../api/update-case-status.ts';
import { notAvailable } from './case-fields.ts';
import { DetailList } from './detail-list.tsx';

/** A status as the contract names it, in the language shown. */
const statusLabel = (status: CaseStatus) => serverText(caseStatusLabels[status]);
const dispatchWaitsId = 'case-status-dispatch-waits';

interface ChangeFields {
  note: string;
  reason: string;
  courier: string;
  trackingNumber: string;
}
const noFields: ChangeFields = { note: '', reason: '', courier: '', trackingNumber: '' };

/**
 * Asks before a status change, with the fields the move needs: a reason to go back, courier
 * and tracking number to dispatch, a note always (docs/decisions/cases.md § Case status workflow).
 * The server checks the same rules; its field messages show under the inputs.
 */
function ConfirmStatusModal({
  caseId,
  from,
  to,
  onClose,
}: {
  caseId: number;
  from: CaseStatus;
  to: CaseStatus;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const update = useUpdateCaseStatus();
  const [fields, setFields] = useState<ChangeFields>(noFields);
  const [errors, setErrors] = useState<Partial<Record<keyof ChangeFields, string>>>({});
  const isBack = isBackwardMove(from, to);
  const isDispatch = to === 'dispatched';

  const input = (name: keyof ChangeFields) => ({
    value: fields[name],
    error: errors[name],
    onChange: (event: { currentTarget: { value: string } }) => {
      const { value } = event.currentTarget;
      setFields((current) => ({ ...current, [name]: value }));
      setErrors((current) => ({ ...current, [name]: undefined }));
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The modal sits in a portal, but React still bubbles its submit to the page's forms.
    event.stopPropagation();
    const missing: typeof errors = {};
    if (isBack && !fields.reason.trim()) missing.reason = serverText(caseStatusMessages.reasonRequired);
    if (isDispatch && !fields.courier.trim()) missing.courier = serverText(caseStatusMessages.courierRequired);
    if (isDispatch && !fields.trackingNumber.trim())
      missing.trackingNumber = serverText(caseStatusMessages.trackingNumberRequired);
    if (Object.keys(missing).length > 0) {
      setErrors(missing);
      return;
    }
    const body = {
      status: to,
      note: fields.note,
      ...(isBack && { reason: fields.reason }),
      ...(isDispatch && { courier: fields.courier, trackingNumber: fields.trackingNumber }),
    };
    // Not mutate()'s own callbacks: the refetches the change sets off can unmount this modal
    // before they end, and TanStack Query then never calls them (the toast was lost).
    update.mutateAsync({ caseId, ...body }).then(
      () => {
        // The server's sentence, in the language shown.
        const label = statusLabel(to);
        notifySuccess(t`Case status changed to ${label}`);
        onClose();
      },
      (error: unknown) => {
        notifyError(errorMessage(error, t`Something went wrong...`));
        if (error instanceof ApiError) {
          setErrors(serverFieldErrors(error));
        }
      },
    );
  };

  const fromLabel = statusLabel(from);
  const toLabel = statusLabel(to);
  return (
    <Modal opened onClose={onClose} title={t`Change the case status`} centered>
      <Stack component="form" gap="sm" onSubmit={submit}>
        <Text size="sm">
          <Trans>
            Move this case from {fromLabel} to <b>{toLabel}</b>? The doctor is e-mailed.
          </Trans>
        </Text>
        {isBack && (
          <Textarea
            label={t`Reason`}
            description={t`Why the case goes back. The doctor reads it on the case's timeline.`}
            withAsterisk
            autosize
            minRows={2}
            {...input('reason')}
          />
        )}
        {isDispatch && (
          <>
            <CourierInput
              value={fields.courier}
              error={errors.courier}
              onChange={(value) => input('courier').onChange({ currentTarget: { value } })}
            />
            <TextInput label={t`Tracking number`} withAsterisk {...input('trackingNumber')} />
          </>
        )}
        {/* The lab's own notes are the Internal notes beside: this one reaches the doctor. */}
        <Textarea
          label={t`Note`}
          description={t`For the doctor: shown on the case's timeline.`}
          autosize
          minRows={2}
          {...input('note')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" loading={update.isPending}>
            <Trans>Confirm</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * Staff pick the next status; the change is confirmed in a modal. Dispatched and Delivered are
 * offered from New or In Progress only once the doctor has approved a plan (the server's rule,
 * needsApprovedPlan), and the reason shows in place.
 */
export function ChangeStatusControl({
  caseId,
  current,
  planState,
}: {
  caseId: number;
  current: CaseStatus;
  planState: PlanState | null;
}) {
  const { t } = useLingui();
  const [status, setStatus] = useState<CaseStatus>(current);
  const [confirming, setConfirming] = useState(false);
  const canLeave = planState === 'approved' || !needsApprovedPlan(current, 'dispatched');
  const options = caseStatuses.map((value) => ({
    value,
    label: statusLabel(value),
    disabled: !canLeave && needsApprovedPlan(current, value),
  }));
  return (
    <>
      <Group
        component="form"
        align="flex-end"
        mb="md"
        onSubmit={(event) => {
          event.preventDefault();
          setConfirming(true);
        }}
      >
        <Select
          label={t`Case status`}
          data={options}
          value={status}
          onChange={(value) => value && setStatus(value as CaseStatus)}
          allowDeselect={false}
          w={220}
          aria-describedby={canLeave ? undefined : dispatchWaitsId}
        />
        <Button type="submit" disabled={status === current}>
          <Trans>Update Status</Trans>
        </Button>
      </Group>
      {!canLeave && (
        <Text id={dispatchWaitsId} size="xs" c="dimmed" mt={-8} mb="md">
          <Trans>Dispatched or Delivered once the doctor approves a treatment plan</Trans>
        </Text>
      )}
      {confirming && (
        <ConfirmStatusModal caseId={caseId} from={current} to={status} onClose={() => setConfirming(false)} />
      )}
    </>
  );
}

/**
 * Where a dispatched or delivered case was shipped, from its latest dispatch: what the doctor
 * needs to follow it. Nothing once the case has gone back before dispatch.
 */
export function ShippingDetails({ timeline, current }: { timeline: CaseTimelineEntry[]; current: CaseStatus }) {
  const { t } = useLingui();
  if (current !== 'dispatched' && current !== 'delivered') return null;
  const dispatch = timeline.findLast((entry) => entry.kind === 'status' && entry.to === 'dispatched');
  if (dispatch?.kind !== 'status') return null;
  return (
    <DetailList
      items={[
        { label: t`Courier`, value: dispatch.courier ?? notAvailable() },
        {
          label: t`Courier tracking number`,
          value: <TrackingNumber courier={dispatch.courier} trackingNumber={dispatch.trackingNumber} />,
        },
      ]}
    />
  );
}

/**
 * The courier of a dispatch: any name may be typed; the lab's couriers (its Settings) are offered
 * as buttons that fill it in, so the field stays a plain text box.
 */
function CourierInput(props: { value: string; error: string | undefined; onChange: (value: string) => void }) {
  const { t } = useLingui();
  const couriers = useQuery(couriersQueryOptions());
  const names = (couriers.data?.couriers ?? []).map((courier) => courier.name);
  return (
    <Stack gap={4}>
      <TextInput
        label={t`Courier`}
        withAsterisk
        value={props.value}
        error={props.error}
        onChange={(event) => props.onChange(event.currentTarget.value)}
      />
      {names.length > 0 && (
        <Group gap={6} aria-label={t`The lab's couriers`} role="group">
          {names.map((name) => (
            <Button key={name} size="compact-xs" variant="light" onClick={() => props.onChange(name)}>
              {name}
            </Button>
          ))}
        </Group>
      )}
    </Stack>
  );
}

/** A tracking number, a link to the courier's tracking page when the courier is one of the lab's (its Settings). */
export function TrackingNumber({ courier, trackingNumber }: { courier: string | null; trackingNumber: string | null }) {
  const couriers = useQuery({ ...couriersQueryOptions(), enabled: trackingNumber !== null && courier !== null });
  if (trackingNumber === null) return notAvailable();
  const url = courier === null ? undefined : courierTrackingUrl(couriers.data?.couriers ?? [], courier, trackingNumber);
  return url ? (
    <Anchor href={url} target="_blank" rel="noopener noreferrer">
      {trackingNumber}
    </Anchor>
  ) : (
    trackingNumber
  );
}
