import { Badge } from '@mantine/core';
import { caseStatusLabels, type CaseStatus } from '@portal/contract/case-statuses';
import { serverText } from '../lib/server-text.ts';

// Shades with at least 4.5:1 contrast to white text (orange.9 and green.9 fall short).
const statusColors: Record<CaseStatus, string> = {
  new: 'blue.9',
  inprogress: 'cyan.9',
  dispatched: 'grape.9',
  delivered: 'teal.9',
};

export function CaseStatusBadge({ status }: { status: CaseStatus }) {
  return (
    <Badge color={statusColors[status]} variant="filled" radius="sm">
      {serverText(caseStatusLabels[status])}
    </Badge>
  );
}
