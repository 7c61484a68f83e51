import { Badge, Group, Text } from '@mantine/core';
import { caseStatusLabels, daysSince, dueAt, type CaseStatus, type TurnaroundTargets } from '@portal/contract';
import { formatDateOnly } from '../lib/format-date.ts';

const days = (count: number) => `${count} ${count === 1 ? 'day' : 'days'}`;

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
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm" span>
        {isCompact ? `${inStatus} d` : `In ${caseStatusLabels[status]} for ${days(inStatus)}`}
        {!isCompact && due && `, due ${formatDateOnly(due.toISOString().slice(0, 10))}`}
      </Text>
      {isOverdue && (
        <Badge color="red" variant="light" size="sm">
          Overdue
        </Badge>
      )}
    </Group>
  );
}
