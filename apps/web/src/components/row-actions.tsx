import { ActionIcon, Button, Group } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPencil, IconTrash, type Icon } from '@tabler/icons-react';

/** A row's action besides Edit and Delete: its label, icon and colour. */
export interface RowAction {
  label: string;
  icon: Icon;
  color?: string;
  onClick: () => void;
}

/**
 * A list row's Edit and Delete buttons (after any `extra` ones), named for the record so
 * each is distinct to a screen reader; on a phone they shrink to their icons.
 */
export function RowActions({
  name,
  onEdit,
  onDelete,
  extra = [],
}: {
  name: string;
  onEdit: () => void;
  onDelete: () => void;
  extra?: readonly RowAction[];
}) {
  const isNarrow = useMediaQuery('(max-width: 48em)') ?? false;
  const actions: readonly RowAction[] = [
    ...extra,
    { label: 'Edit', icon: IconPencil, onClick: onEdit },
    { label: 'Delete', icon: IconTrash, color: 'red', onClick: onDelete },
  ];
  return (
    <Group gap="xs" wrap="nowrap">
      {actions.map(({ label, icon: Icon, color, onClick }) =>
        isNarrow ? (
          <ActionIcon key={label} variant="light" color={color} aria-label={`${label} ${name}`} onClick={onClick}>
            <Icon size={16} aria-hidden />
          </ActionIcon>
        ) : (
          <Button
            key={label}
            size="compact-sm"
            variant="light"
            color={color}
            leftSection={<Icon size={14} aria-hidden />}
            aria-label={`${label} ${name}`}
            onClick={onClick}
          >
            {label}
          </Button>
        ),
      )}
    </Group>
  );
}
