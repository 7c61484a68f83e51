import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Text, TextInput } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import type {
  CaseAssigneeFilter,
  CaseListQuery,
  CaseRow,
  CaseSortColumn,
  CaseStatusFilter,
  PlanState,
} from '@portal/contract';
import { caseSortColumns } from '@portal/contract/case-list';
import { IconEye, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { CaseStatusBadge } from '../../../components/case-status-badge.tsx';
import { ServerTable } from '../../../components/data-table.tsx';
import { phoneMediaQuery } from '../../../components/phone-columns.tsx';
import { pageSizes } from '../../../components/table-footer.tsx';
import type { SortStatus, TableColumn } from '../../../components/table-column.ts';
import { TimeInStatus } from '../../../components/time-in-status.tsx';
import { UnreadBadge } from '../../../components/unread-badge.tsx';
import { formatDateOnly } from '../../../lib/format-date.ts';
import { turnaroundQueryOptions, unreadCountsQueryOptions } from '../../../lib/shared-queries.ts';
import { useCases } from '../api/get-cases.ts';
import { OffTrackBadge } from './off-track-badge.tsx';

const searchDelayMs = 300;

// Mantine's Select and Combobox load with the staff's technician column, not with every cold
// dashboard (a doctor's has none): docs/decisions/speed.md § On the wire.
const loadAssigneeSelect = () => import('../../../components/assignee-select.tsx');
const AssigneeSelect = lazy(() => loadAssigneeSelect().then((module) => ({ default: module.AssigneeSelect })));

const isCaseSort = (value: string | null): value is NonNullable<CaseListQuery['sort']> =>
  value !== null && (caseSortColumns as readonly string[]).includes(value.replace(/^-/, ''));

/**
 * The case list, paged, sorted and searched by the server: `page`, `pageSize`, `sort`
 * ('TrackingNo', '-CreatedAt') and `search` (tracking number or doctor name).
 */
export function CaseList({
  userId,
  status,
  planState,
  assignee,
  isOverdue,
  isOffTrack,
  from,
  to,
  showDoctor,
  isStaff,
  onView,
}: {
  userId: number;
  status: CaseStatusFilter;
  planState?: PlanState;
  /** Staff: their own cases as technician, or the unassigned ones. */
  assignee?: CaseAssigneeFilter;
  /** Staff: only the cases past their status's turnaround target. */
  isOverdue?: boolean;
  /** Only cases whose latest progress scan has a tooth off track. */
  isOffTrack?: boolean;
  /** Staff: submitted from and to these days, YYYY-MM-DD. */
  from?: string;
  to?: string;
  showDoctor: boolean;
  /** The lab's columns: the technician and the turnaround targets (a doctor's assistant sees the doctor column only). */
  isStaff: boolean;
  onView: (caseRow: CaseRow) => void;
}) {
  const { t } = useLingui();
  // The search, sort, page and page size live in the address (?q=&sort=&page=&size=), with
  // the dashboard's filters, so Back, Reload and a shared link restore the list as it was.
  const [searchParams, setSearchParams] = useSearchParams();
  const setParams = (change: Record<string, string | undefined>, replace = false) =>
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current);
        for (const [name, value] of Object.entries(change)) {
          if (value === undefined) params.delete(name);
          else params.set(name, value);
        }
        return params;
      },
      { replace },
    );
  const urlSearch = searchParams.get('q') ?? '';
  const [search, setSearch] = useState(urlSearch);
  // Each keystroke replaces the address's entry at once (no history step a letter); only the
  // request waits for typing to pause. A write after a delay could land after View was
  // pressed and take the user back from the case they opened.
  const typeSearch = (typed: string) => {
    setSearch(typed);
    if (typed.trim() !== urlSearch) setParams({ q: typed.trim() || undefined, page: undefined }, true);
  };
  const [debouncedSearch] = useDebouncedValue(urlSearch, searchDelayMs);
  // Back or a link changes the address: the box follows it.
  useEffect(() => {
    setSearch((typed) => (typed.trim() === urlSearch ? typed : urlSearch));
  }, [urlSearch]);
  const sizeParam = Number(searchParams.get('size'));
  const pageSize = pageSizes.includes(sizeParam) ? sizeParam : 10;
  const sortParam = searchParams.get('sort');
  const sortStatus: SortStatus = isCaseSort(sortParam)
    ? { columnAccessor: sortParam.replace(/^-/, ''), direction: sortParam.startsWith('-') ? 'desc' : 'asc' }
    : { columnAccessor: 'CreatedAt' satisfies CaseSortColumn, direction: 'desc' };
  const pageParam = Number(searchParams.get('page'));
  const page = Number.isSafeInteger(pageParam) && pageParam > 1 ? pageParam : 1;
  const setPage = (next: number) => setParams({ page: next > 1 ? String(next) : undefined });
  const setPageSize = (next: number) => setParams({ size: next === 10 ? undefined : String(next), page: undefined });
  const setSortStatus = (next: SortStatus) => {
    const value = `${next.direction === 'desc' ? '-' : ''}${next.columnAccessor}`;
    setParams({ sort: value === '-CreatedAt' ? undefined : value, page: undefined });
  };

  const sort = `${sortStatus.direction === 'desc' ? '-' : ''}${sortStatus.columnAccessor as CaseSortColumn}` as const;
  const cases = useCases({
    status,
    userId,
    page,
    pageSize,
    search: debouncedSearch,
    sort,
    planState,
    assignee,
    isOverdue,
    isOffTrack,
    from,
    to,
  });
  const isPhone = useMediaQuery(phoneMediaQuery) ?? false;
  const turnaround = useQuery({ ...turnaroundQueryOptions(), enabled: isStaff });
  // Staff's technician column: its Select starts loading with the rows' query, not once they are in.
  useEffect(() => {
    if (isStaff) void loadAssigneeSelect();
  }, [isStaff]);
  const unread = useQuery({
    ...unreadCountsQueryOptions(),
    select: (rows) => new Map(rows.map((row) => [row.caseId, row.unread])),
  });

  const columns: TableColumn<CaseRow>[] = [
    { accessor: 'serial', title: t`S.No`, width: 70, render: (_, index) => (page - 1) * pageSize + index + 1 },
    {
      accessor: 'TrackingNo',
      title: t`Tracking No`,
      sortable: true,
      // A tracking number on one line; on a phone the patient's name and the status under it, as
      // the row's other columns are behind its Details and a status column left no room for a
      // whole badge (issue 41: bare numbers told nobody whose case, and "DISPATC..." was cut).
      render: (row) => (
        <>
          <Group gap={6} wrap="nowrap">
            <span style={{ whiteSpace: 'nowrap' }}>{row.TrackingNo}</span>
            <UnreadBadge count={unread.data?.get(row.CaseId) ?? 0} />
          </Group>
          {/* Off track under the number, not beside it: beside it, the column took the room of the
              others at 1280 px and pushed View out of a phone's card. */}
          {isPhone ? (
            <Group gap={6} mt={2}>
              <Text size="sm" c="dimmed">
                {row.FirstName} {row.LastName}
              </Text>
              <CaseStatusBadge status={row.Status} />
              {row.OffTrack && <OffTrackBadge />}
            </Group>
          ) : (
            row.OffTrack && (
              <Group mt={4}>
                <OffTrackBadge />
              </Group>
            )
          )}
        </>
      ),
    },
    { accessor: 'FirstName', title: t`First Name`, sortable: true },
    { accessor: 'LastName', title: t`Last Name`, sortable: true },
    { accessor: 'DOB', title: t`DOB`, sortable: true, render: (row) => formatDateOnly(row.DOB) },
    { accessor: 'doctorname', title: t`Doctor`, sortable: true, hidden: !showDoctor },
    {
      accessor: 'Status',
      title: t`Status`,
      sortable: true,
      hidden: isPhone,
      render: (row) => <CaseStatusBadge status={row.Status} />,
    },
    {
      accessor: 'StatusChangedAt',
      title: t`In status`,
      render: (row) => (
        <TimeInStatus status={row.Status} since={row.StatusChangedAt} targets={turnaround.data?.targets} isCompact />
      ),
    },
    {
      accessor: 'AssigneeUserId',
      title: t`Technician`,
      hidden: !isStaff,
      render: (row) => (
        // Until the Select is in, an input of its size shows the technician (not a combobox: nothing to pick yet).
        <Suspense
          fallback={
            <TextInput
              size="xs"
              value={row.AssigneeName ?? t`Unassigned`}
              readOnly
              tabIndex={-1}
              aria-hidden
              maw={260}
            />
          }
        >
          <AssigneeSelect
            caseId={row.CaseId}
            trackingNo={row.TrackingNo}
            assigneeUserId={row.AssigneeUserId}
            assigneeName={row.AssigneeName}
            size="xs"
            withLabel={false}
          />
        </Suspense>
      ),
    },
    {
      accessor: 'actions',
      title: t`Action`,
      textAlign: 'right',
      render: (row) => (
        <Button size="compact-sm" leftSection={<IconEye size={14} aria-hidden />} onClick={() => onView(row)}>
          <Trans>View</Trans>
        </Button>
      ),
    },
  ];

  return (
    <>
      <TextInput
        label={t`Search`}
        description={t`Tracking number, patient or doctor name`}
        placeholder={t`Search...`}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(event) => typeSearch(event.currentTarget.value)}
        maw={360}
        mb="sm"
      />
      <ServerTable<CaseRow>
        records={cases.data?.rows}
        total={cases.data?.total}
        columns={columns}
        // eslint-disable-next-line lingui/no-unlocalized-strings -- column accessors
        phoneColumns={['TrackingNo', 'actions']}
        idAccessor="CaseId"
        isFetching={cases.isFetching}
        page={page}
        onPageChange={setPage}
        pageSize={pageSize}
        onPageSizeChange={setPageSize}
        sortStatus={sortStatus}
        onSortStatusChange={setSortStatus}
      />
    </>
  );
}
