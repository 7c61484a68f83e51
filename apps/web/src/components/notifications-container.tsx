// The full sheet, as on the signed-in pages: sign-in's part (main.tsx) lacks the notification's and dialog's styles.
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { useMediaQuery } from '@mantine/hooks';
import { Notifications } from '@mantine/notifications';
import classes from './notifications-container.module.css';
import { phoneMediaQuery } from './phone-columns.tsx';

/**
 * Top right on a wide screen; at the bottom on a phone, where a toast under the header
 * covered the page's title and first row (issue 41).
 */
export default function NotificationsContainer() {
  const isPhone = useMediaQuery(phoneMediaQuery) ?? false;
  return <Notifications position={isPhone ? 'bottom-center' : 'top-right'} classNames={{ root: classes.root }} />;
}
