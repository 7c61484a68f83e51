import { Button, Group, Select, Text, Timeline, Title } from '@mantine/core';
import { caseStatuses, caseStatusLabels, type CaseStatus } from '@portal/contract';
import { IconCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { formatDateTime } from '../../../../lib/format-date.ts';
import { errorMessage, notifyError, notifySuccess } from '../../../../lib/notify.ts';
import { useCaseHistory } from '../../api/get-case-history.ts';
import { useUpdateCaseStatus } from '../../api/update-case-status.ts';

const statusOptions = caseStatuses.map((status) => ({ value: status, label: caseStatusLabels[status] }));

function ChangeStatusForm({ caseId, current }: { caseId: number; current: CaseStatus }) {
  const [status, setStatus] = useState<CaseStatus>(current);
  const update = useUpdateCaseStatus();
  return (
    <Group
      component="form"
      align="flex-end"
      mb="md"
      onSubmit={(event) => {
        event.preventDefault();
        // Not mutate()'s own callbacks: this form is keyed by the current status, so the
        // history refetch the change sets off can unmount it before the other refetches end,
        // and TanStack Query then never calls them (the toast was lost). The promise settles
        // whether or not the form is still there.
        update.mutateAsync({ caseId, status }).then(
          (answer) => notifySuccess(answer.message || 'Updated successfully'),
          (error: unknown) => notifyError(errorMessage(error, 'Something went wrong...')),
        );
      }}
    >
      <Select
        label="Case status"
        data={statusOptions}
        value={status}
        onChange={(value) => value && setStatus(value as CaseStatus)}
        allowDeselect={false}
        w={220}
      />
      <Button type="submit" disabled={status === current} loading={update.isPending}>
        Update Status
      </Button>
    </Group>
  );
}

/** The case's status history as a timeline; staff also get the control that changes it. */
export function CaseStatusPanel({
  caseId,
  currentStatus,
  canChangeStatus,
}: {
  caseId: number;
  currentStatus: CaseStatus;
  canChangeStatus: boolean;
}) {
  const history = useCaseHistory(caseId);
  const entries = history.data ?? [];

  return (
    <>
      {canChangeStatus && <ChangeStatusForm key={currentStatus} caseId={caseId} current={currentStatus} />}
      <Title order={4} size="h5" mb="sm">
        History
      </Title>
      {entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          {history.isLoading ? 'Loading...' : 'No status changes recorded'}
        </Text>
      ) : (
        <Timeline active={entries.length - 1} bulletSize={22} lineWidth={2} color="teal.9">
          {entries.map((entry, index) => (
            <Timeline.Item
              key={`${entry.ChangedAt}-${index}`}
              title={caseStatusLabels[entry.ToStatus]}
              bullet={index === entries.length - 1 ? <IconCheck size={12} aria-hidden /> : undefined}
            >
              <Text size="sm">by {entry.ChangedByName}</Text>
              <Text size="xs" c="dimmed">
                {formatDateTime(entry.ChangedAt)}
              </Text>
            </Timeline.Item>
          ))}
        </Timeline>
      )}
    </>
  );
}
