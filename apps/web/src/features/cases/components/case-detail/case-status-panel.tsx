import { Anchor, Button, Group, Modal, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import {
  caseStatuses,
  caseStatusLabels,
  caseStatusMessages,
  courierTrackingUrl,
  isBackwardMove,
  type CaseStatus,
  type PlanState,
  type CaseTimelineEntry,
} from '@portal/contract';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../../lib/api-client.ts';
import { errorMessage, notifyError, notifySuccess } from '../../../../lib/notify.ts';
import { useUpdateCaseStatus } from '../../api/update-case-status.ts';
import { DetailList } from './detail-list.tsx';

const statusOptions = caseStatuses.map((status) => ({ value: status, label: caseStatusLabels[status] }));
const dispatchWaits = 'Dispatched once the doctor approves a treatment plan';
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
    if (isBack && !fields.reason.trim()) missing.reason = caseStatusMessages.reasonRequired;
    if (isDispatch && !fields.courier.trim()) missing.courier = caseStatusMessages.courierRequired;
    if (isDispatch && !fields.trackingNumber.trim()) missing.trackingNumber = caseStatusMessages.trackingNumberRequired;
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
      (answer) => {
        notifySuccess(answer.message || 'Updated successfully');
        onClose();
      },
      (error: unknown) => {
        notifyError(errorMessage(error, 'Something went wrong...'));
        if (error instanceof ApiError) setErrors(error.fieldErrors);
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title="Change the case status" centered>
      <Stack component="form" gap="sm" onSubmit={submit}>
        <Text size="sm">
          Move this case from {caseStatusLabels[from]} to <b>{caseStatusLabels[to]}</b>? The doctor is e-mailed.
        </Text>
        {isBack && (
          <Textarea
            label="Reason"
            description="Why the case goes back"
            withAsterisk
            autosize
            minRows={2}
            {...input('reason')}
          />
        )}
        {isDispatch && (
          <>
            <TextInput label="Courier" withAsterisk {...input('courier')} />
            <TextInput label="Tracking number" withAsterisk {...input('trackingNumber')} />
          </>
        )}
        <Textarea label="Note" autosize minRows={2} {...input('note')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending}>
            Confirm
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * Staff pick the next status; the change is confirmed in a modal. Dispatched is offered only
 * once the doctor has approved a plan (the server's rule), and the reason shows in place.
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
  const [status, setStatus] = useState<CaseStatus>(current);
  const [confirming, setConfirming] = useState(false);
  const canDispatch = current === 'dispatched' || planState === 'approved';
  const options = statusOptions.map((option) =>
    option.value === 'dispatched' && !canDispatch ? { ...option, disabled: true } : option,
  );
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
          label="Case status"
          data={options}
          value={status}
          onChange={(value) => value && setStatus(value as CaseStatus)}
          allowDeselect={false}
          w={220}
          aria-describedby={canDispatch ? undefined : dispatchWaitsId}
        />
        <Button type="submit" disabled={status === current}>
          Update Status
        </Button>
      </Group>
      {!canDispatch && (
        <Text id={dispatchWaitsId} size="xs" c="dimmed" mt={-8} mb="md">
          {dispatchWaits}
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
  if (current !== 'dispatched' && current !== 'delivered') return null;
  const dispatch = timeline.findLast((entry) => entry.kind === 'status' && entry.to === 'dispatched');
  if (dispatch?.kind !== 'status') return null;
  return (
    <DetailList
      items={[
        { label: 'Courier', value: dispatch.courier ?? 'N/A' },
        {
          label: 'Courier tracking number',
          value: <TrackingNumber courier={dispatch.courier} trackingNumber={dispatch.trackingNumber} />,
        },
      ]}
    />
  );
}

/** A tracking number, a link to the courier's tracking page when the courier is a known one. */
export function TrackingNumber({ courier, trackingNumber }: { courier: string | null; trackingNumber: string | null }) {
  if (trackingNumber === null) return 'N/A';
  const url = courier === null ? undefined : courierTrackingUrl(courier, trackingNumber);
  return url ? (
    <Anchor href={url} target="_blank" rel="noopener noreferrer">
      {trackingNumber}
    </Anchor>
  ) : (
    trackingNumber
  );
}
