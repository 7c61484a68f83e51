import { useLingui } from '@lingui/react/macro';
import { ActionIcon, Group, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useState } from 'react';
import type { RowDetail } from './portal-table.tsx';
import { cellContent, fieldText, type TableColumn } from './table-column.ts';

/** Below the sidebar's breakpoint a list keeps only the columns that matter (docs/decisions/accounts.md § Phones). */
// eslint-disable-next-line lingui/no-unlocalized-strings -- a CSS media query
export const phoneMediaQuery = '(max-width: 48em)';

/**
 * On a phone: only the `phoneColumns` (by accessor), so the list fits 375 px without sideways
 * scrolling; the first of them carries a Details toggle that opens the other columns as the
 * row's detail. On wider screens: the columns as given, no detail.
 */
export function usePhoneColumns<T>(
  columns: TableColumn<T>[],
  idAccessor: keyof T & string,
  phoneColumns: string[] | undefined,
): { columns: TableColumn<T>[]; rowDetail?: RowDetail<T>; horizontalSpacing?: number } {
  const { t } = useLingui();
  const isPhone = useMediaQuery(phoneMediaQuery) ?? false;
  const [expandedIds, setExpandedIds] = useState<unknown[]>([]);
  if (!isPhone || !phoneColumns) return { columns };

  const shown = columns.filter((column) => !column.hidden);
  const detail = shown.filter((column) => !phoneColumns.includes(column.accessor));
  const [first] = phoneColumns;
  const idOf = (record: T) => record[idAccessor];
  const isOpen = (record: T) => expandedIds.includes(idOf(record));
  const detailsOf = (record: T, accessor: string) => {
    const name = fieldText(record, accessor);
    return t`Details of ${name}`;
  };
  const toggle = (record: T) =>
    setExpandedIds((ids) =>
      ids.includes(idOf(record)) ? ids.filter((id) => id !== idOf(record)) : [...ids, idOf(record)],
    );

  return {
    horizontalSpacing: 6,
    columns: shown
      .filter((column) => phoneColumns.includes(column.accessor))
      // Long names break rather than widen the table past the screen; a column whose words must
      // stay whole (the audit log's actions) says so in its own cellStyle.
      .map((column) => ({ ...column, cellStyle: { overflowWrap: 'anywhere' as const, ...column.cellStyle } }))
      .map((column) =>
        column.accessor !== first
          ? column
          : {
              ...column,
              render: (record: T, index: number) => (
                <Group gap={4} wrap="nowrap">
                  <ActionIcon
                    variant="subtle"
                    size="lg"
                    aria-expanded={isOpen(record)}
                    aria-label={detailsOf(record, column.accessor)}
                    onClick={() => toggle(record)}
                  >
                    {isOpen(record) ? (
                      <IconChevronDown size={18} aria-hidden />
                    ) : (
                      <IconChevronRight size={18} aria-hidden />
                    )}
                  </ActionIcon>
                  <div style={{ minWidth: 0 }}>{cellContent(column, record, index)}</div>
                </Group>
              ),
            },
      ),
    rowDetail: {
      isOpen,
      render: (record, index) => (
        <dl
          style={{ margin: 0, padding: '8px 12px', display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '4px 12px' }}
        >
          {detail.map((column) => (
            <div key={column.accessor} style={{ display: 'contents' }}>
              <Text component="dt" size="sm" fw={600}>
                {column.title ?? column.accessor}
              </Text>
              <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
                {cellContent(column, record, index)}
              </Text>
            </div>
          ))}
        </dl>
      ),
    },
  };
}
