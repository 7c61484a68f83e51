import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Menu, Pagination, Text } from '@mantine/core';
import { IconSelector } from '@tabler/icons-react';
import classes from './portal-table.module.css';

/** The page sizes a table offers (the spec's). */
export const pageSizes = [5, 10, 20];

export interface TablePaging {
  page: number;
  pageSize: number;
  /** How many records there are in all pages together. */
  total: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
}

/** Under a table with records: 'from - to / total', the records per page (5/10/20) and the pages. */
export function TableFooter({ paging, shownCount }: { paging: TablePaging; shownCount: number }) {
  const { t } = useLingui();
  const { page, pageSize, total, onPageChange, onPageSizeChange } = paging;
  const from = (page - 1) * pageSize + 1;
  return (
    <div className={classes.footer}>
      <Text component="div" size="sm" style={{ flex: '1 1 auto' }}>
        {`${from} - ${from + shownCount - 1} / ${total}`}
      </Text>
      <Group gap="xs">
        <Text component="div" size="sm">
          <Trans>Records per page</Trans>
        </Text>
        <Menu withArrow offset={2}>
          <Menu.Target>
            <Button
              size="compact-sm"
              variant="default"
              fw="normal"
              rightSection={<IconSelector size={14} aria-hidden />}
              aria-label={t`Records per page: ${pageSize}`}
            >
              {pageSize}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {pageSizes.map((size) => (
              <Menu.Item
                key={size}
                className={classes.pageSizeItem}
                disabled={size === pageSize}
                data-active={size === pageSize || undefined}
                onClick={() => onPageSizeChange(size)}
              >
                {size}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      </Group>
      <Pagination
        size="sm"
        value={page}
        onChange={onPageChange}
        total={Math.max(1, Math.ceil(total / pageSize))}
        getControlProps={(control) =>
          control === 'previous'
            ? { 'aria-label': t`Previous page` }
            : control === 'next'
              ? { 'aria-label': t`Next page` }
              : {}
        }
        getItemProps={(item) => ({ 'aria-label': t`Page ${item}` })}
      />
    </div>
  );
}
