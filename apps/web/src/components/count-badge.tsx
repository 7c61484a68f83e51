import { Badge, VisuallyHidden } from '@mantine/core';

/** How many of something wait, beside a case or a menu item ('3 unread'); nothing when none do. */
export function CountBadge({ count, label, color = 'red.9' }: { count: number; label: string; color?: string }) {
  if (count <= 0) return null;
  return (
    <Badge color={color} variant="filled" size="sm" radius="xl" title={`${count} ${label}`}>
      {count}
      <VisuallyHidden> {label}</VisuallyHidden>
    </Badge>
  );
}
