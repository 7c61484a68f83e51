import type { CSSProperties, ReactNode } from 'react';

/** One column of a portal table: what its header says and how a record's cell is drawn. */
export interface TableColumn<T> {
  /** The record's field shown when there is no `render`; also the column's key and sort key. */
  accessor: string;
  /** The header; the accessor when not given. */
  title?: string;
  sortable?: boolean;
  hidden?: boolean;
  width?: number;
  textAlign?: 'left' | 'center' | 'right';
  noWrap?: boolean;
  cellStyle?: CSSProperties;
  render?: (record: T, index: number) => ReactNode;
}

export interface SortStatus {
  columnAccessor: string;
  direction: 'asc' | 'desc';
}

/** The next sort after a header is pressed: the same column turns round, another starts ascending. */
export const nextSortStatus = (current: SortStatus | undefined, accessor: string): SortStatus =>
  current?.columnAccessor === accessor
    ? { columnAccessor: accessor, direction: current.direction === 'asc' ? 'desc' : 'asc' }
    : { columnAccessor: accessor, direction: 'asc' };

export const fieldText = <T>(record: T, accessor: string) =>
  String((record as Record<string, unknown>)[accessor] ?? '');

/** What a record's cell shows in a column. */
export const cellContent = <T>(column: TableColumn<T>, record: T, index: number): ReactNode =>
  column.render ? column.render(record, index) : fieldText(record, column.accessor);
