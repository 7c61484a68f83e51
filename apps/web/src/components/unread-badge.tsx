import { useLingui } from '@lingui/react/macro';
import { CountBadge } from './count-badge.tsx';

/** How many messages are unread, beside a case or a menu item; nothing when none are. */
export function UnreadBadge({ count }: { count: number }) {
  const { t } = useLingui();
  return <CountBadge count={count} label={t`unread`} />;
}
