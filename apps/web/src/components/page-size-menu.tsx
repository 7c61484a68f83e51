import { Menu } from '@mantine/core';
import { useOpenedAtMount } from './on-first-use.tsx';
import { pageSizes, PageSizeButton } from './table-footer.tsx';
import classes from './portal-table.module.css';

/** The records-per-page menu (5/10/20), loaded and opened at its button's first click (table-footer.tsx). */
export default function PageSizeMenu({
  pageSize,
  onPageSizeChange,
}: {
  pageSize: number;
  onPageSizeChange: (pageSize: number) => void;
}) {
  const { target, opened, onChange } = useOpenedAtMount();
  return (
    <Menu withArrow offset={2} opened={opened} onChange={onChange}>
      <Menu.Target>
        <PageSizeButton pageSize={pageSize} ref={target} />
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
  );
}
