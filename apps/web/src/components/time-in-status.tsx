import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Group, Text } from '@mantine/core';
import { caseStatusLabels, type CaseStatus } from '@portal/contract/case-statuses';
import { daysSince, dueAt, type TurnaroundTargets } from '@portal/contract/turnaround';
import { formatDateOnly } from '../lib/format-date.ts';
import { serverText } from '../lib/server-text.ts';

/**
 * How long a case has been in its status, and for staff (who have the lab's targets) when it
 * is due to move on, with an Overdue badge once that has passed (docs/decisions/cases.md § Turnaround).
 */
export function TimeInStatus({
  status,
  since,
  targets,
  isCompact = false,
}: {
  status: CaseStatus;
  since: string;
  /** The lab's targets; without them (a doctor) no due date. */
  targets?: TurnaroundTargets;
  /** The list's cell: "3 d" and the badge. */
  isCompact?: boolean;
}) {
  const inStatus = daysSince(since);
  const due = targets && dueAt(status, since, targets);
  const isOverdue = due !== undefined && due.getTime() < Date.now();
  const { t } = useLingui();
  // "In Progress since today", "New for 3 days, due 05/12/2026": the label read as the sentence's subject, never "In In Progress".
  const label = serverText(caseStatusLabels[status]);
  const dueDate = due ? formatDateOnly(due.toISOString().slice(0, 10)) : '';
  const sentence = !due
    ? inStatus === 0
      ? t`${label} since today`
      : t`${label} for ${plural(inStatus, { one: '# day', other: '# days' })}`
    : inStatus === 0
      ? t`${label} since today, due ${dueDate}`
      : t`${label} for ${plural(inStatus, { one: '# day', other: '# days' })}, due ${dueDate}`;
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm" span>
        {isCompact ? t`${inStatus} d` : sentence}
      </Text>
      {isOverdue && (
        <Badge color="red" variant="light" size="sm">
          <Trans>Overdue</Trans>
        </Badge>
      )}
    </Group>
  );
}
