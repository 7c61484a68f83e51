import { CountBadge } from './count-badge.tsx';

/** How many messages are unread, beside a case or a menu item; nothing when none are. */
export function UnreadBadge({ count }: { count: number }) {
  return <CountBadge count={count} label="unread" />;
}
