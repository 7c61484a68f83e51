import { Badge, VisuallyHidden } from '@mantine/core';

/** How many messages are unread, beside a case or a menu item; nothing when none are. */
export function UnreadBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <Badge color="red.9" variant="filled" size="sm" radius="xl" title={`${count} unread`}>
      {count}
      <VisuallyHidden> unread</VisuallyHidden>
    </Badge>
  );
}
