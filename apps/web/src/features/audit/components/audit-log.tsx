import { Badge, Group, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { auditActions, auditOutcomes, type AuditAction, type AuditEntry, type AuditOutcome } from '@portal/contract';
import { Fragment, useState } from 'react';
import { ServerTable, usePageOf } from '../../../components/data-table.tsx';
import type { TableColumn } from '../../../components/table-column.ts';
import { PageTitle } from '../../../components/page-title.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { useAuditEntries } from '../api/get-audit-entries.ts';

const typingDelayMs = 300;

// Shades with at least 4.5:1 contrast to white text.
const outcomeColors: Record<AuditOutcome, string> = { success: 'teal.9', failure: 'grape.9', refused: 'red.9' };

/** 'doctor.password_reset_request' may break after its '.' and '_' only, so it fits a phone whole-worded. */
const withBreaksAfterSeparators = (action: string) =>
  action.split(/(?<=[._])/).map((part, index) => (
    <Fragment key={index}>
      {index > 0 && <wbr />}
      {part}
    </Fragment>
  ));

const columns: TableColumn<AuditEntry>[] = [
  { accessor: 'At', title: 'When', render: (row) => formatDateTime(row.At) },
  { accessor: 'UserName', title: 'User', render: (row) => row.UserName ?? '—' },
  {
    accessor: 'Action',
    title: 'Action',
    // Not 'anywhere' as the phone columns have it, which broke "case.downl oad" mid-word.
    cellStyle: { overflowWrap: 'normal' },
    render: (row) => withBreaksAfterSeparators(row.Action),
  },
  { accessor: 'Target', title: 'Target', render: (row) => row.Target ?? '—' },
  {
    accessor: 'Outcome',
    title: 'Outcome',
    noWrap: true,
    render: (row) => (
      <Badge color={outcomeColors[row.Outcome]} variant="filled" radius="sm">
        {row.Outcome}
      </Badge>
    ),
  },
  { accessor: 'Address', title: 'Address' },
];

/** The administrator's audit log: newest first, paged and filtered by the server. */
export function AuditLog() {
  const [action, setAction] = useState<AuditAction | null>(null);
  const [actor, setActor] = useState('');
  const [debouncedActor] = useDebouncedValue(actor, typingDelayMs);
  const [outcome, setOutcome] = useState<AuditOutcome | null>(null);
  const [pageSize, setPageSize] = useState(10);
  const [page, setPage] = usePageOf(`${action}|${debouncedActor}|${outcome}|${pageSize}`);
  const entries = useAuditEntries({ page, pageSize, action, actor: debouncedActor, outcome });

  return (
    <>
      <PageTitle title="Audit Log" />
      <Group align="flex-end" mb="sm">
        <Select
          label="Action"
          placeholder="Any action"
          data={auditActions}
          value={action}
          onChange={(value) => setAction(value as AuditAction | null)}
          clearable
          searchable
          w={260}
        />
        <TextInput
          label="User"
          placeholder="Username"
          value={actor}
          onChange={(event) => setActor(event.currentTarget.value)}
          w={220}
        />
        <Select
          label="Outcome"
          placeholder="Any outcome"
          data={auditOutcomes}
          value={outcome}
          onChange={(value) => setOutcome(value as AuditOutcome | null)}
          clearable
          w={180}
        />
      </Group>
      <ServerTable<AuditEntry>
        records={entries.data?.rows}
        total={entries.data?.total}
        columns={columns}
        phoneColumns={['At', 'Action', 'Outcome']}
        idAccessor="AuditId"
        isFetching={entries.isFetching}
        page={page}
        onPageChange={setPage}
        pageSize={pageSize}
        onPageSizeChange={setPageSize}
      />
    </>
  );
}
