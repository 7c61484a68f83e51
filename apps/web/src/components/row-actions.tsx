import { useLingui } from '@lingui/react/macro';
import { ActionIcon, Button, Group } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPencil, IconTrash, type Icon } from '@tabler/icons-react';
import { phoneMediaQuery } from './phone-columns.tsx';

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
  const { t } = useLingui();
  const isNarrow = useMediaQuery(phoneMediaQuery) ?? false;
  // Each button's name says what it acts on: 'Edit Role 1' (an extra action's label comes translated from its caller).
  const actions: readonly (RowAction & { ariaLabel: string })[] = [
    ...extra.map((action) => ({ ...action, ariaLabel: `${action.label} ${name}` })),
    { label: t`Edit`, ariaLabel: t`Edit ${name}`, icon: IconPencil, onClick: onEdit },
    { label: t`Delete`, ariaLabel: t`Delete ${name}`, icon: IconTrash, color: 'red', onClick: onDelete },
  ];
  return (
    // Longer words (German, the pseudo-locale) take a second line rather than being cut.
    <Group gap="xs">
      {actions.map(({ label, ariaLabel, icon: Icon, color, onClick }) =>
        isNarrow ? (
          <ActionIcon key={label} variant="light" color={color} aria-label={ariaLabel} onClick={onClick}>
            <Icon size={16} aria-hidden />
          </ActionIcon>
        ) : (
          <Button
            key={label}
            size="compact-sm"
            variant="light"
            color={color}
            leftSection={<Icon size={14} aria-hidden />}
            aria-label={ariaLabel}
            onClick={onClick}
          >
            {label}
          </Button>
        ),
      )}
    </Group>
  );
}
