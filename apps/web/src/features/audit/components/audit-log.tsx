import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Badge, Group, Select, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { auditActions, auditOutcomes, type AuditAction, type AuditEntry, type AuditOutcome } from '@portal/contract';
import { Fragment, useState } from 'react';
import { ServerTable, usePageOf } from '../../../components/data-table.tsx';
import type { TableColumn } from '../../../components/table-column.ts';
import { PageTitle } from '../../../components/page-title.tsx';
import { partsInZone } from '../../../lib/format-date.ts';
import { isEnglish } from '../../../lib/format-number.ts';
import { intlLocale } from '../../../lib/i18n.ts';
import { displayTimeZone } from '../../../lib/time-zone.ts';
import { useAuditEntries } from '../api/get-audit-entries.ts';

const typingDelayMs = 300;

// Shades with at least 4.5:1 contrast to white text.
const outcomeColors: Record<AuditOutcome, string> = { success: 'teal.9', failure: 'grape.9', refused: 'red.9' };

/** The words of an outcome; the value is what the server takes. */
const outcomeLabels = { success: msg`success`, failure: msg`failure`, refused: msg`refused` } as const satisfies Record<
  AuditOutcome,
  unknown
>;

/**
 * 'doctor.password_reset_request' may break after its '.' and '_' only, so it fits a phone
 * whole-worded. A code, not words: the same in every language (`translate="no"`).
 */
const withBreaksAfterSeparators = (action: string) => (
  <span translate="no">
    {action.split(/(?<=[._])/).map((part, index) => (
      <Fragment key={index}>
        {index > 0 && <wbr />}
        {part}
      </Fragment>
    ))}
  </span>
);

const whole = { whiteSpace: 'nowrap' } as const;

/** The columns a phone shows. */
const phoneColumns: (keyof AuditEntry)[] = ['At', 'Action', 'Outcome'];

/**
 * '27 Nov 2026, 15:04:09' in the user's time zone: an audit needs the second, and a date
 * no one reads the wrong way round. On a phone it may break after the comma, nowhere else.
 */
function auditTime(at: string) {
  // Another language writes its own date and time, to the second, as Intl does there.
  if (!isEnglish()) {
    const written = new Intl.DateTimeFormat(intlLocale(), {
      dateStyle: 'medium',
      timeStyle: 'medium',
      timeZone: displayTimeZone(),
    }).format(new Date(at));
    return <time dateTime={at}>{written}</time>;
  }
  const { day, month, year, hour, minute, second } = partsInZone(at, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return (
    <time dateTime={at}>
      <span style={whole}>
        {day} {month} {year},
      </span>{' '}
      <span style={whole}>
        {hour}:{minute}:{second}
      </span>
    </time>
  );
}

const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * What the target names as it reads now, with the raw target under it unless the label already
 * shows it. The server's record of what was acted on ('User admin (…)', 'case:1'): kept as written
 * in every language, as the action's code is (`translate="no"`).
 */
function auditTarget({ Target: target, TargetLabel: label, Changes: changes }: AuditEntry) {
  // A change of the lab's settings: each setting with its before and after.
  if (changes) {
    return Object.entries(changes).map(([name, change]) => (
      <Text key={name} size="xs" style={{ overflowWrap: 'anywhere' }}>
        <b>{name}</b>: {shown(change.before)} → {shown(change.after)}
      </Text>
    ));
  }
  if (!target) return '—';
  if (!label || label.startsWith(target)) return <span translate="no">{label ?? target}</span>;
  return (
    <span translate="no">
      {label}
      <Text component="span" display="block" size="xs" c="dimmed">
        {target}
      </Text>
    </span>
  );
}

/** The administrator's audit log: newest first, paged and filtered by the server. */
export function AuditLog() {
  const { t, i18n } = useLingui();
  const [action, setAction] = useState<AuditAction | null>(null);
  const [actor, setActor] = useState('');
  const [debouncedActor] = useDebouncedValue(actor, typingDelayMs);
  const [outcome, setOutcome] = useState<AuditOutcome | null>(null);
  const [pageSize, setPageSize] = useState(10);
  const [page, setPage] = usePageOf(`${action}|${debouncedActor}|${outcome}|${pageSize}`);
  const entries = useAuditEntries({ page, pageSize, action, actor: debouncedActor, outcome });

  const columns: TableColumn<AuditEntry>[] = [
    { accessor: 'At', title: t`When`, render: (row) => auditTime(row.At) },
    { accessor: 'UserName', title: t`User`, render: (row) => row.UserName ?? '—' },
    {
      accessor: 'Action',
      title: t`Action`,
      // Not 'anywhere' as the phone columns have it, which broke "case.downl oad" mid-word.
      cellStyle: { overflowWrap: 'normal' },
      render: (row) => withBreaksAfterSeparators(row.Action),
    },
    { accessor: 'Target', title: t`Target`, render: auditTarget },
    {
      accessor: 'Outcome',
      title: t`Outcome`,
      noWrap: true,
      render: (row) => (
        // Its label never shrinks to "SUCCE…": the column keeps the badge's whole width, even at 375 px.
        <Badge
          color={outcomeColors[row.Outcome]}
          variant="filled"
          radius="sm"
          styles={{
            root: { flexShrink: 0, overflow: 'visible' },
            label: { overflow: 'visible', textOverflow: 'clip' },
          }}
        >
          {i18n._(outcomeLabels[row.Outcome])}
        </Badge>
      ),
    },
    { accessor: 'Address', title: t`Address` },
  ];

  return (
    <>
      <PageTitle title={t`Audit Log`} />
      <Group align="flex-end" mb="sm">
        <Select
          label={t`Action`}
          placeholder={t`Any action`}
          data={auditActions}
          value={action}
          onChange={(value) => setAction(value as AuditAction | null)}
          clearable
          searchable
          w={260}
        />
        <TextInput
          label={t`User`}
          placeholder={t`Username`}
          value={actor}
          onChange={(event) => setActor(event.currentTarget.value)}
          w={220}
        />
        <Select
          label={t`Outcome`}
          placeholder={t`Any outcome`}
          data={auditOutcomes.map((value) => ({ value, label: i18n._(outcomeLabels[value]) }))}
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
        phoneColumns={phoneColumns}
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
