import { TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { DataTable, type DataTableColumn, type DataTableSortProps, type DataTableSortStatus } from 'mantine-datatable';
import { useMemo, useState } from 'react';
import 'mantine-datatable/styles.css';
import { usePhoneColumns } from './phone-columns.tsx';

export const pageSizes = [5, 10, 20];
export const noRecordsText = 'There are no records to display';

/** Compares two cell values for sorting: numbers as numbers, the rest as text. */
function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a ?? '').localeCompare(String(b ?? ''), undefined, { numeric: true, sensitivity: 'base' });
}

/**
 * The portal's table over records held in memory: striped, sortable, 10 rows a page with
 * 5/10/20, the spec's empty and loading texts, and an optional search over `searchKeys`.
 */
export function LocalTable<T extends Record<string, unknown>>({
  records,
  columns,
  idAccessor,
  isLoading,
  searchKeys,
  searchLabel = 'Search',
  defaultSort,
  emptyText = noRecordsText,
  pinLastColumn,
  phoneColumns,
}: {
  records: T[] | undefined;
  columns: DataTableColumn<T>[];
  idAccessor: keyof T & string;
  isLoading?: boolean;
  searchKeys?: (keyof T & string)[];
  searchLabel?: string;
  defaultSort?: DataTableSortStatus<T>;
  /** What an empty table says, when a screen words it differently ('No record found'). */
  emptyText?: string;
  /** Keeps the last column (a row's actions) in view while a narrow screen scrolls the rest. */
  pinLastColumn?: boolean;
  /** The columns a phone shows (accessors); the others open as a row's detail. */
  phoneColumns?: string[];
}) {
  const phone = usePhoneColumns(columns, idAccessor, phoneColumns);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const [sortStatus, setSortStatus] = useState<DataTableSortStatus<T>>(
    defaultSort ?? { columnAccessor: idAccessor, direction: 'asc' },
  );

  const rows = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const found = (records ?? []).filter(
      (record) =>
        !needle ||
        (searchKeys ?? []).some((key) =>
          String(record[key] ?? '')
            .toLowerCase()
            .includes(needle),
        ),
    );
    const key = sortStatus.columnAccessor as keyof T;
    const sorted = [...found].sort((a, b) => compare(a[key], b[key]));
    return sortStatus.direction === 'desc' ? sorted.reverse() : sorted;
  }, [records, search, searchKeys, sortStatus]);

  const visible = rows.slice((page - 1) * pageSize, page * pageSize);

  return (
    <>
      {searchKeys && (
        <TextInput
          label={searchLabel}
          placeholder="Search..."
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
          maw={360}
          mb="sm"
        />
      )}
      <DataTable<T>
        withTableBorder
        striped
        highlightOnHover
        minHeight={visible.length === 0 ? 180 : undefined}
        records={visible}
        columns={phone.columns}
        rowExpansion={phone.rowExpansion}
        horizontalSpacing={phone.horizontalSpacing}
        idAccessor={idAccessor}
        fetching={isLoading}
        loadingText="Loading..."
        noRecordsText={emptyText}
        pinLastColumn={pinLastColumn}
        totalRecords={rows.length}
        page={page}
        onPageChange={setPage}
        recordsPerPage={pageSize}
        recordsPerPageOptions={pageSizes}
        onRecordsPerPageChange={(size) => {
          setPageSize(size);
          setPage(1);
        }}
        sortStatus={sortStatus}
        onSortStatusChange={setSortStatus}
      />
    </>
  );
}

/**
 * The page a server-paged list shows, back to 1 whenever `filterKey` (its filters, search,
 * sort and page size) changes; the state is adjusted while rendering, as React advises.
 */
export function usePageOf(filterKey: string): [number, (page: number) => void] {
  const [page, setPage] = useState(1);
  const [pageFilterKey, setPageFilterKey] = useState(filterKey);
  if (pageFilterKey !== filterKey) {
    setPageFilterKey(filterKey);
    setPage(1);
  }
  return [page, setPage];
}

/**
 * The portal's table over one page of records the server chose (paged, filtered and sorted
 * there): the same look, texts and page sizes as LocalTable.
 */
export function ServerTable<T>({
  records,
  total,
  columns,
  idAccessor,
  isFetching,
  page,
  onPageChange,
  pageSize,
  onPageSizeChange,
  phoneColumns,
  ...sort
}: {
  records: T[] | undefined;
  total: number | undefined;
  columns: DataTableColumn<T>[];
  idAccessor: keyof T & string;
  isFetching: boolean;
  page: number;
  onPageChange: (page: number) => void;
  pageSize: number;
  onPageSizeChange: (pageSize: number) => void;
  /** The columns a phone shows (accessors); the others open as a row's detail. */
  phoneColumns?: string[];
} & DataTableSortProps<T>) {
  const phone = usePhoneColumns(columns, idAccessor, phoneColumns);
  return (
    <DataTable<T>
      withTableBorder
      striped
      highlightOnHover
      minHeight={records?.length ? undefined : 180}
      records={records ?? []}
      columns={phone.columns}
      rowExpansion={phone.rowExpansion}
      horizontalSpacing={phone.horizontalSpacing}
      idAccessor={idAccessor}
      fetching={isFetching}
      loadingText="Loading..."
      noRecordsText={noRecordsText}
      totalRecords={total ?? 0}
      page={page}
      onPageChange={onPageChange}
      recordsPerPage={pageSize}
      recordsPerPageOptions={pageSizes}
      onRecordsPerPageChange={onPageSizeChange}
      {...sort}
    />
  );
}

/** The 'S.No' column: the row's position in the whole list. */
export const serialNumberColumn = <T,>(records: T[] | undefined): DataTableColumn<T> => ({
  accessor: '__serial',
  title: 'S.No',
  width: 70,
  render: (record) => (records ?? []).indexOf(record) + 1,
});
