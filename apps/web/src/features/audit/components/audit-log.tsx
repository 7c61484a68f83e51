import { Badge, Group, Select, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import dayjs from 'dayjs';
import { auditActions, auditOutcomes, type AuditAction, type AuditEntry, type AuditOutcome } from '@portal/contract';
import { Fragment, useState } from 'react';
import { ServerTable, usePageOf } from '../../../components/data-table.tsx';
import type { TableColumn } from '../../../components/table-column.ts';
import { PageTitle } from '../../../components/page-title.tsx';
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

const whole = { whiteSpace: 'nowrap' } as const;

/**
 * '27 Nov 2026, 15:04:09' in the browser's time zone: an audit needs the second, and a date
 * no one reads the wrong way round. On a phone it may break after the comma, nowhere else.
 */
function auditTime(at: string) {
  const time = dayjs(at);
  return (
    <time dateTime={at}>
      <span style={whole}>{time.format('D MMM YYYY')},</span> <span style={whole}>{time.format('HH:mm:ss')}</span>
    </time>
  );
}

/** What the target names as it reads now, with the raw target under it unless the label already shows it. */
function auditTarget({ Target: target, TargetLabel: label }: AuditEntry) {
  if (!target) return '—';
  if (!label || label.startsWith(target)) return label ?? target;
  return (
    <>
      {label}
      <Text component="span" display="block" size="xs" c="dimmed">
        {target}
      </Text>
    </>
  );
}

const columns: TableColumn<AuditEntry>[] = [
  { accessor: 'At', title: 'When', render: (row) => auditTime(row.At) },
  { accessor: 'UserName', title: 'User', render: (row) => row.UserName ?? '—' },
  {
    accessor: 'Action',
    title: 'Action',
    // Not 'anywhere' as the phone columns have it, which broke "case.downl oad" mid-word.
    cellStyle: { overflowWrap: 'normal' },
    render: (row) => withBreaksAfterSeparators(row.Action),
  },
  { accessor: 'Target', title: 'Target', render: auditTarget },
  {
    accessor: 'Outcome',
    title: 'Outcome',
    noWrap: true,
    render: (row) => (
      // Its label never shrinks to "SUCCE…": the column keeps the badge's whole width, even at 375 px.
      <Badge
        color={outcomeColors[row.Outcome]}
        variant="filled"
        radius="sm"
        styles={{ root: { flexShrink: 0, overflow: 'visible' }, label: { overflow: 'visible', textOverflow: 'clip' } }}
      >
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
