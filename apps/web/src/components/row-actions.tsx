import { ActionIcon, Button, Group } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPencil, IconTrash } from '@tabler/icons-react';

/**
 * A list row's Edit and Delete buttons, named for the record so each is distinct to a screen
 * reader; on a phone they shrink to their icons.
 */
export function RowActions({ name, onEdit, onDelete }: { name: string; onEdit: () => void; onDelete: () => void }) {
  const isNarrow = useMediaQuery('(max-width: 48em)') ?? false;
  const actions = [
    { label: 'Edit', icon: IconPencil, color: undefined, onClick: onEdit },
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
