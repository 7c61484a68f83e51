import { Button, Group, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  caseSortColumns,
  type CaseAssigneeFilter,
  type CaseListQuery,
  type CaseRow,
  type CaseSortColumn,
  type CaseStatusFilter,
  type PlanState,
} from '@portal/contract';
import { IconEye, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { AssigneeSelect } from '../../../components/assignee-select.tsx';
import { CaseStatusBadge } from '../../../components/case-status-badge.tsx';
import { ServerTable } from '../../../components/data-table.tsx';
import { pageSizes } from '../../../components/table-footer.tsx';
import type { SortStatus, TableColumn } from '../../../components/table-column.ts';
import { TimeInStatus } from '../../../components/time-in-status.tsx';
import { UnreadBadge } from '../../../components/unread-badge.tsx';
import { formatDateOnly } from '../../../lib/format-date.ts';
import { turnaroundQueryOptions, unreadCountsQueryOptions } from '../../../lib/shared-queries.ts';
import { useCases } from '../api/get-cases.ts';

const searchDelayMs = 300;

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
  /** Staff: submitted from and to these days, YYYY-MM-DD. */
  from?: string;
  to?: string;
  showDoctor: boolean;
  /** The lab's columns: the technician and the turnaround targets (a doctor's assistant sees the doctor column only). */
  isStaff: boolean;
  onView: (caseRow: CaseRow) => void;
}) {
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
    : { columnAccessor: 'CreatedAt', direction: 'desc' };
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
    from,
    to,
  });
  const turnaround = useQuery({ ...turnaroundQueryOptions(), enabled: isStaff });
  const unread = useQuery({
    ...unreadCountsQueryOptions(),
    select: (rows) => new Map(rows.map((row) => [row.caseId, row.unread])),
  });

  const columns: TableColumn<CaseRow>[] = [
    { accessor: 'serial', title: 'S.No', width: 70, render: (_, index) => (page - 1) * pageSize + index + 1 },
    {
      accessor: 'TrackingNo',
      title: 'Tracking No',
      sortable: true,
      render: (row) => (
        <Group gap={6} wrap="nowrap">
          {row.TrackingNo}
          <UnreadBadge count={unread.data?.get(row.CaseId) ?? 0} />
        </Group>
      ),
    },
    { accessor: 'FirstName', title: 'First Name', sortable: true },
    { accessor: 'LastName', title: 'Last Name', sortable: true },
    { accessor: 'DOB', title: 'DOB', sortable: true, render: (row) => formatDateOnly(row.DOB) },
    { accessor: 'doctorname', title: 'Doctor', sortable: true, hidden: !showDoctor },
    { accessor: 'Status', title: 'Status', sortable: true, render: (row) => <CaseStatusBadge status={row.Status} /> },
    {
      accessor: 'StatusChangedAt',
      title: 'In status',
      render: (row) => (
        <TimeInStatus status={row.Status} since={row.StatusChangedAt} targets={turnaround.data?.targets} isCompact />
      ),
    },
    {
      accessor: 'AssigneeUserId',
      title: 'Technician',
      hidden: !isStaff,
      render: (row) => (
        <AssigneeSelect
          caseId={row.CaseId}
          trackingNo={row.TrackingNo}
          assigneeUserId={row.AssigneeUserId}
          assigneeName={row.AssigneeName}
          size="xs"
          withLabel={false}
        />
      ),
    },
    {
      accessor: 'actions',
      title: 'Action',
      textAlign: 'right',
      render: (row) => (
        <Button size="compact-sm" leftSection={<IconEye size={14} aria-hidden />} onClick={() => onView(row)}>
          View
        </Button>
      ),
    },
  ];

  return (
    <>
      <TextInput
        label="Search"
        description="Tracking number, patient or doctor name"
        placeholder="Search..."
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
        phoneColumns={['TrackingNo', 'Status', 'actions']}
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
