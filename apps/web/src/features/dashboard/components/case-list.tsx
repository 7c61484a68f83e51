import { Button, Group, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { CaseAssigneeFilter, CaseRow, CaseSortColumn, CaseStatusFilter, PlanState } from '@portal/contract';
import { IconEye, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { AssigneeSelect } from '../../../components/assignee-select.tsx';
import { CaseStatusBadge } from '../../../components/case-status-badge.tsx';
import { ServerTable, usePageOf } from '../../../components/data-table.tsx';
import type { SortStatus, TableColumn } from '../../../components/table-column.ts';
import { UnreadBadge } from '../../../components/unread-badge.tsx';
import { formatDateOnly } from '../../../lib/format-date.ts';
import { unreadCountsQueryOptions } from '../../../lib/shared-queries.ts';
import { useCases } from '../api/get-cases.ts';

const searchDelayMs = 300;

/**
 * The case list, paged, sorted and searched by the server: `page`, `pageSize`, `sort`
 * ('TrackingNo', '-CreatedAt') and `search` (tracking number or doctor name).
 */
export function CaseList({
  userId,
  status,
  planState,
  assignee,
  showDoctor,
  onView,
}: {
  userId: number;
  status: CaseStatusFilter;
  planState?: PlanState;
  /** Staff: their own cases as technician, or the unassigned ones. */
  assignee?: CaseAssigneeFilter;
  showDoctor: boolean;
  onView: (caseRow: CaseRow) => void;
}) {
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, searchDelayMs);
  const [pageSize, setPageSize] = useState(10);
  const [sortStatus, setSortStatus] = useState<SortStatus>({
    columnAccessor: 'CreatedAt',
    direction: 'desc',
  });
  const [page, setPage] = usePageOf(
    `${status}|${planState ?? ''}|${assignee ?? ''}|${debouncedSearch}|${sortStatus.columnAccessor}|${sortStatus.direction}|${pageSize}`,
  );

  const sort = `${sortStatus.direction === 'desc' ? '-' : ''}${sortStatus.columnAccessor as CaseSortColumn}` as const;
  const cases = useCases({ status, userId, page, pageSize, search: debouncedSearch, sort, planState, assignee });
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
      accessor: 'AssigneeUserId',
      title: 'Technician',
      hidden: !showDoctor,
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
        onChange={(event) => setSearch(event.currentTarget.value)}
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
