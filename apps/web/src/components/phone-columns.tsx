import { ActionIcon, Group, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import type { DataTableColumn, DataTableRowExpansionProps } from 'mantine-datatable';
import { type ReactNode, useState } from 'react';

/** Below the sidebar's breakpoint a list keeps only the columns that matter (docs/decisions.md § Phones). */
export const phoneMediaQuery = '(max-width: 48em)';

const keyOf = <T,>(column: DataTableColumn<T>) => String(column.accessor);
const fieldOf = <T,>(record: T, key: string) => String((record as Record<string, unknown>)[key] ?? '');
const valueOf = <T,>(column: DataTableColumn<T>, record: T, index: number): ReactNode =>
  column.render ? column.render(record, index) : fieldOf(record, keyOf(column));

/**
 * On a phone: only the `phoneColumns` (by accessor), so the list fits 375 px without sideways
 * scrolling; the first of them carries a Details toggle that opens the other columns as the
 * row's detail. On wider screens: the columns as given, no detail.
 */
export function usePhoneColumns<T>(
  columns: DataTableColumn<T>[],
  idAccessor: keyof T & string,
  phoneColumns: string[] | undefined,
): { columns: DataTableColumn<T>[]; rowExpansion?: DataTableRowExpansionProps<T>; horizontalSpacing?: number } {
  const isPhone = useMediaQuery(phoneMediaQuery) ?? false;
  const [expandedIds, setExpandedIds] = useState<unknown[]>([]);
  if (!isPhone || !phoneColumns) return { columns };

  const shown = columns.filter((column) => !column.hidden);
  const detail = shown.filter((column) => !phoneColumns.includes(keyOf(column)));
  const [first] = phoneColumns;
  const idOf = (record: T) => record[idAccessor];
  const toggle = (record: T) =>
    setExpandedIds((ids) =>
      ids.includes(idOf(record)) ? ids.filter((id) => id !== idOf(record)) : [...ids, idOf(record)],
    );

  return {
    horizontalSpacing: 6,
    columns: shown
      .filter((column) => phoneColumns.includes(keyOf(column)))
      // Long names break rather than widen the table past the screen.
      .map((column) => ({ ...column, cellsStyle: () => ({ overflowWrap: 'anywhere' as const }) }))
      .map((column) =>
        keyOf(column) !== first
          ? column
          : {
              ...column,
              render: (record: T, index: number) => {
                const isOpen = expandedIds.includes(idOf(record));
                const name = fieldOf(record, keyOf(column));
                return (
                  <Group gap={4} wrap="nowrap">
                    <ActionIcon
                      variant="subtle"
                      size="lg"
                      aria-expanded={isOpen}
                      aria-label={`Details of ${name}`}
                      onClick={() => toggle(record)}
                    >
                      {isOpen ? <IconChevronDown size={18} aria-hidden /> : <IconChevronRight size={18} aria-hidden />}
                    </ActionIcon>
                    <div style={{ minWidth: 0 }}>{valueOf(column, record, index)}</div>
                  </Group>
                );
              },
            },
      ),
    rowExpansion: {
      trigger: 'never',
      allowMultiple: true,
      expanded: { recordIds: expandedIds, onRecordIdsChange: setExpandedIds },
      content: ({ record, index }) => (
        <dl
          style={{ margin: 0, padding: '8px 12px', display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '4px 12px' }}
        >
          {detail.map((column) => (
            <div key={keyOf(column)} style={{ display: 'contents' }}>
              <Text component="dt" size="sm" fw={600}>
                {column.title ?? keyOf(column)}
              </Text>
              <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
                {valueOf(column, record, index)}
              </Text>
            </div>
          ))}
        </dl>
      ),
    },
  };
}
