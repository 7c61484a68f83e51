import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Pagination, Text } from '@mantine/core';
import { IconSelector } from '@tabler/icons-react';
import { lazy, type ComponentPropsWithRef } from 'react';
import { OnFirstUse } from './on-first-use.tsx';
import classes from './portal-table.module.css';

const loadPageSizeMenu = () => import('./page-size-menu.tsx');
const PageSizeMenu = lazy(loadPageSizeMenu);

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

/** The records-per-page button, showing the page size; its menu loads on first use (page-size-menu.tsx). */
export function PageSizeButton({ pageSize, ...props }: { pageSize: number } & ComponentPropsWithRef<'button'>) {
  const { t } = useLingui();
  return (
    <Button
      size="compact-sm"
      variant="default"
      fw="normal"
      rightSection={<IconSelector size={14} aria-hidden />}
      aria-label={t`Records per page: ${pageSize}`}
      {...props}
    >
      {pageSize}
    </Button>
  );
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
        <OnFirstUse trigger={<PageSizeButton pageSize={pageSize} />} preload={loadPageSizeMenu}>
          <PageSizeMenu pageSize={pageSize} onPageSizeChange={onPageSizeChange} />
        </OnFirstUse>
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
