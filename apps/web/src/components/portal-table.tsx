import { Trans, useLingui } from '@lingui/react/macro';
import { Loader, Table, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconDatabaseOff, IconSelector } from '@tabler/icons-react';
import { Fragment, type ReactNode } from 'react';
import classes from './portal-table.module.css';
import { TableFooter, type TablePaging } from './table-footer.tsx';
import { cellContent, nextSortStatus, type SortStatus, type TableColumn } from './table-column.ts';

/** A record's detail, drawn in a row of its own under the record's row while open. */
export interface RowDetail<T> {
  isOpen: (record: T) => boolean;
  render: (record: T, index: number) => ReactNode;
}

export interface PortalTableProps<T> {
  /** The records of the page shown. */
  records: T[];
  columns: TableColumn<T>[];
  idAccessor: keyof T & string;
  isFetching?: boolean;
  emptyText?: string;
  pinLastColumn?: boolean;
  horizontalSpacing?: number;
  rowDetail?: RowDetail<T>;
  sortStatus?: SortStatus;
  onSortStatusChange?: (sortStatus: SortStatus) => void;
  paging: TablePaging;
}

/**
 * The portal's table: striped rows, sortable headers (buttons, with aria-sort on the sorted
 * one), the spec's empty and 'Loading...' states, and a footer with the page and page size.
 */
export function PortalTable<T>(props: PortalTableProps<T>) {
  const { t } = useLingui();
  const { records, idAccessor, isFetching = false, rowDetail, paging } = props;
  const emptyText = props.emptyText ?? t`There are no records to display`;
  const columns = props.columns.filter((column) => !column.hidden);
  const pinnedAccessor = props.pinLastColumn ? columns.at(-1)?.accessor : undefined;
  const pinnedClass = (column: TableColumn<T>) => (column.accessor === pinnedAccessor ? classes.pinned : undefined);

  return (
    <div className={classes.root}>
      <div className={classes.scroller}>
        <Table horizontalSpacing={props.horizontalSpacing} aria-busy={isFetching}>
          <Table.Thead className={classes.head}>
            <Table.Tr>
              {columns.map((column) => (
                <HeaderCell
                  key={column.accessor}
                  column={column}
                  className={pinnedClass(column)}
                  sortStatus={props.sortStatus}
                  onSortStatusChange={props.onSortStatusChange}
                />
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {records.map((record, index) => (
              <Fragment key={String(record[idAccessor])}>
                <Table.Tr className={classes.row} data-striped={index % 2 === 0 || undefined}>
                  {columns.map((column) => (
                    <Table.Td
                      key={column.accessor}
                      className={pinnedClass(column)}
                      style={{
                        textAlign: column.textAlign,
                        whiteSpace: column.noWrap ? 'nowrap' : undefined,
                        ...column.cellStyle,
                      }}
                    >
                      {cellContent(column, record, index)}
                    </Table.Td>
                  ))}
                </Table.Tr>
                {rowDetail?.isOpen(record) && (
                  <Table.Tr className={classes.row} data-striped={index % 2 === 0 || undefined} data-detail>
                    <Table.Td colSpan={columns.length} p={0}>
                      {rowDetail.render(record, index)}
                    </Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            ))}
            {records.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={columns.length} className={classes.empty}>
                  {!isFetching && (
                    <>
                      <span className={classes.emptyIcon}>
                        <IconDatabaseOff size={20} aria-hidden />
                      </span>
                      <Text size="sm" c="dimmed">
                        {emptyText}
                      </Text>
                    </>
                  )}
                </Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </div>
      {records.length > 0 && <TableFooter paging={paging} shownCount={records.length} />}
      {isFetching && (
        <div className={classes.loader} role="status">
          <Loader size="md" aria-hidden />
          <Text size="sm" c="dimmed">
            <Trans>Loading...</Trans>
          </Text>
        </div>
      )}
    </div>
  );
}

/** A column's header: a button that sorts by the column when it is sortable. */
function HeaderCell<T>({
  column,
  className,
  sortStatus,
  onSortStatusChange,
}: {
  column: TableColumn<T>;
  className: string | undefined;
} & Pick<PortalTableProps<T>, 'sortStatus' | 'onSortStatusChange'>) {
  const title = column.title ?? column.accessor;
  const style = { width: column.width, textAlign: column.textAlign };
  if (!column.sortable || !onSortStatusChange) {
    return (
      <Table.Th className={className} style={style}>
        {title}
      </Table.Th>
    );
  }
  const direction = sortStatus?.columnAccessor === column.accessor ? sortStatus.direction : undefined;
  const Icon = direction === 'asc' ? IconArrowUp : direction === 'desc' ? IconArrowDown : IconSelector;
  return (
    <Table.Th
      className={className}
      style={style}
      aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : undefined}
    >
      <UnstyledButton
        className={classes.sortButton}
        onClick={() => onSortStatusChange(nextSortStatus(sortStatus, column.accessor))}
      >
        {title}
        <Icon className={classes.sortIcon} data-sorted={direction} size={14} aria-hidden />
      </UnstyledButton>
    </Table.Th>
  );
}
