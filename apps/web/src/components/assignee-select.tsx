import { useLingui } from '@lingui/react/macro';
import { Select } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../lib/api-client.ts';
import { errorMessage, notifyError, notifySuccess } from '../lib/notify.ts';
import { caseKeys } from '../lib/shared-queries.ts';

const unassigned = 'none';

/**
 * The lab's technician on a case, changed in place
 * (docs/decisions/cases.md § Assignment and internal notes):
 * staff with the Dashboard page, or Unassigned. Used on the case page and
 * in the dashboard's list, so both assign the same way.
 */
export function AssigneeSelect({
  caseId,
  trackingNo,
  assigneeUserId,
  assigneeName,
  size = 'sm',
  withLabel = true,
}: {
  caseId: number;
  trackingNo: string;
  assigneeUserId: number | null;
  /** Shown even when that user can no longer be assigned (deactivated, role changed). */
  assigneeName: string | null;
  size?: 'xs' | 'sm';
  withLabel?: boolean;
}) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const assignees = useQuery({
    queryKey: caseKeys.assignees(),
    queryFn: () => api.call('GET /api/case/assignees', {}),
    staleTime: 60_000,
  });
  const assign = useMutation({
    mutationFn: (userId: number | null) =>
      api.call('PUT /api/case/:caseId/assignee', { params: { caseId }, body: { userId } }),
    onSuccess: (answer) => {
      // The server's sentence, in the language shown.
      const name = answer.assignee?.name;
      notifySuccess(name ? t`Case assigned to ${name}` : t`Case unassigned`);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: caseKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: caseKeys.detail(caseId) }),
        queryClient.invalidateQueries({ queryKey: caseKeys.timeline(caseId) }),
      ]);
    },
    onError: (error) => notifyError(errorMessage(error, t`The case could not be assigned`)),
  });
  const data = [
    { value: unassigned, label: t`Unassigned` },
    ...(assignees.data ?? []).map((user, _, all) => ({
      value: String(user.userId),
      // Two people of one name are told apart by their usernames.
      label: all.filter((other) => other.name === user.name).length > 1 ? `${user.name} (${user.userName})` : user.name,
    })),
  ];
  if (assigneeUserId !== null && !data.some((option) => option.value === String(assigneeUserId))) {
    data.push({ value: String(assigneeUserId), label: assigneeName ?? t`User ${assigneeUserId}` });
  }
  return (
    <Select
      size={size}
      label={withLabel ? t`Technician` : undefined}
      aria-label={withLabel ? undefined : t`Technician of case ${trackingNo}`}
      data={data}
      value={assigneeUserId === null ? unassigned : String(assigneeUserId)}
      allowDeselect={false}
      searchable
      disabled={assign.isPending}
      maw={260}
      onChange={(value) => {
        const userId = value === null || value === unassigned ? null : Number(value);
        if (userId !== assigneeUserId) assign.mutate(userId);
      }}
    />
  );
}
