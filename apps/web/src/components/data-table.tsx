import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { i18n } from '../lib/i18n.ts';
import { usePhoneColumns } from './phone-columns.tsx';
import { PortalTable } from './portal-table.tsx';
import type { SortStatus, TableColumn } from './table-column.ts';

const searchDelayMs = 300;

/** Compares two cell values for sorting: numbers as numbers, the rest as text. */
function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a ?? '').localeCompare(String(b ?? ''), undefined, { numeric: true, sensitivity: 'base' });
}

/** What a LocalTable shows of its records: its search, page, page size and sort. */
export function useLocalTableView(defaultSort?: SortStatus) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const [sortStatus, setSortStatus] = useState<SortStatus | undefined>(defaultSort);
  return { search, setSearch, page, setPage, pageSize, setPageSize, sortStatus, setSortStatus };
}
export type LocalTableView = ReturnType<typeof useLocalTableView>;

/**
 * The portal's table over records held in memory: striped, sortable, 10 rows a page with
 * 5/10/20, the spec's empty and loading texts, and an optional search over `searchKeys`.
 * A screen that replaces the table with a form holds its `view`, so that coming back from
 * the form finds the search and page as they were.
 */
export function LocalTable<T extends Record<string, unknown>>({
  records,
  columns,
  idAccessor,
  isLoading,
  searchKeys,
  searchLabel,
  defaultSort,
  emptyText,
  pinLastColumn,
  phoneColumns,
  view,
}: {
  records: T[] | undefined;
  columns: TableColumn<T>[];
  idAccessor: keyof T & string;
  isLoading?: boolean;
  searchKeys?: (keyof T & string)[];
  searchLabel?: string;
  defaultSort?: SortStatus;
  /** What an empty table says, when a screen words it differently ('No record found'). */
  emptyText?: string;
  /** Keeps the last column (a row's actions) in view while a narrow screen scrolls the rest. */
  pinLastColumn?: boolean;
  /** The columns a phone shows (accessors); the others open as a row's detail. */
  phoneColumns?: string[];
  view?: LocalTableView;
}) {
  const { t } = useLingui();
  const phone = usePhoneColumns(columns, idAccessor, phoneColumns);
  const ownView = useLocalTableView(defaultSort);
  const { search, setSearch, page, setPage, pageSize, setPageSize, setSortStatus } = view ?? ownView;
  const sortStatus = (view ?? ownView).sortStatus ?? defaultSort ?? { columnAccessor: idAccessor, direction: 'asc' };

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
    const key = sortStatus.columnAccessor;
    const sorted = [...found].sort((a, b) => compare(a[key], b[key]));
    return sortStatus.direction === 'desc' ? sorted.reverse() : sorted;
  }, [records, search, searchKeys, sortStatus]);

  // After a delete empties the last page, the page before it is shown.
  const shownPage = Math.min(page, Math.max(1, Math.ceil(rows.length / pageSize)));

  return (
    <>
      {searchKeys && (
        <TextInput
          label={searchLabel ?? t`Search`}
          placeholder={t`Search...`}
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
      <PortalTable<T>
        records={rows.slice((shownPage - 1) * pageSize, shownPage * pageSize)}
        columns={phone.columns}
        rowDetail={phone.rowDetail}
        horizontalSpacing={phone.horizontalSpacing}
        idAccessor={idAccessor}
        isFetching={isLoading}
        emptyText={emptyText}
        pinLastColumn={pinLastColumn}
        sortStatus={sortStatus}
        onSortStatusChange={setSortStatus}
        paging={{
          page: shownPage,
          pageSize,
          total: rows.length,
          onPageChange: setPage,
          onPageSizeChange: (size) => {
            setPageSize(size);
            setPage(1);
          },
        }}
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
  pinLastColumn,
  sortStatus,
  onSortStatusChange,
}: {
  records: T[] | undefined;
  total: number | undefined;
  columns: TableColumn<T>[];
  idAccessor: keyof T & string;
  isFetching: boolean;
  page: number;
  onPageChange: (page: number) => void;
  pageSize: number;
  onPageSizeChange: (pageSize: number) => void;
  /** The columns a phone shows (accessors); the others open as a row's detail. */
  phoneColumns?: string[];
  /** Keeps the last column (a row's actions) in view while a narrow screen scrolls the rest. */
  pinLastColumn?: boolean;
  sortStatus?: SortStatus;
  onSortStatusChange?: (sortStatus: SortStatus) => void;
}) {
  const phone = usePhoneColumns(columns, idAccessor, phoneColumns);
  return (
    <PortalTable<T>
      records={records ?? []}
      columns={phone.columns}
      rowDetail={phone.rowDetail}
      horizontalSpacing={phone.horizontalSpacing}
      idAccessor={idAccessor}
      isFetching={isFetching}
      pinLastColumn={pinLastColumn}
      sortStatus={sortStatus}
      onSortStatusChange={onSortStatusChange}
      paging={{ page, pageSize, total: total ?? 0, onPageChange, onPageSizeChange }}
    />
  );
}

/**
 * A server-paged list's search (sent after a pause in typing), sort and page: the page goes
 * back to 1 whenever the search, sort or page size changes. `sort` is the API's form
 * ('UserName', '-Email').
 */
export function useServerListState(defaultSort: SortStatus) {
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, searchDelayMs);
  const [pageSize, setPageSize] = useState(10);
  const [sortStatus, setSortStatus] = useState<SortStatus>(defaultSort);
  const [page, setPage] = usePageOf(
    `${debouncedSearch}|${sortStatus.columnAccessor}|${sortStatus.direction}|${pageSize}`,
  );
  const sort = `${sortStatus.direction === 'desc' ? '-' : ''}${sortStatus.columnAccessor}`;
  return {
    search,
    setSearch,
    debouncedSearch,
    page,
    setPage,
    pageSize,
    setPageSize,
    sortStatus,
    setSortStatus,
    sort,
  };
}

/** The search box over a server-paged list, as LocalTable shows its own. */
export function ListSearch({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useLingui();
  return (
    <TextInput
      label={label}
      placeholder={t`Search...`}
      leftSection={<IconSearch size={16} aria-hidden />}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      maw={360}
      mb="sm"
    />
  );
}

const serialNumberTitle = msg`S.No`;

/** The 'S.No' column of a server-paged list: the row's position in the whole list. */
export const pagedSerialNumberColumn = <T,>(page: number, pageSize: number): TableColumn<T> => ({
  accessor: '__serial',
  title: i18n._(serialNumberTitle),
  width: 70,
  render: (_, index) => (page - 1) * pageSize + index + 1,
});

/** The 'S.No' column: the row's position in the whole list. */
export const serialNumberColumn = <T,>(records: T[] | undefined): TableColumn<T> => ({
  accessor: '__serial',
  title: i18n._(serialNumberTitle),
  width: 70,
  render: (record) => (records ?? []).indexOf(record) + 1,
});
