import { useNotifications } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';

const Notifications = lazy(() => import('./notifications-container.tsx'));

/**
 * Mantine's notification container (and its styles) load with the first notification
 * shown, not with every page: the sign-in page rarely needs it.
 */
export function NotificationsOnDemand() {
  const { notifications } = useNotifications();
  const [isWanted, setIsWanted] = useState(false);
  if (!isWanted && notifications.length > 0) setIsWanted(true);
  return isWanted ? (
    <Suspense fallback={null}>
      <Notifications />
    </Suspense>
  ) : null;
}
