// The full sheet, as on the signed-in pages: sign-in's part (main.tsx) lacks the notification's and dialog's styles.
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';
import classes from './notifications-container.module.css';

export default function NotificationsContainer() {
  return <Notifications position="top-right" classNames={{ root: classes.root }} />;
}
