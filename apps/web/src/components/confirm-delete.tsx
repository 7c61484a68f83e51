import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { whenModalsReady } from './modals-on-demand.tsx';

/** Asks `message` and resolves true only on the red `confirmLabel` button. */
export async function confirmAction({ message, confirmLabel }: { message: string; confirmLabel: string }) {
  await whenModalsReady();
  return new Promise<boolean>((resolve) => {
    modals.openConfirmModal({
      title: 'Please confirm',
      children: <Text size="sm">{message}</Text>,
      labels: { confirm: confirmLabel, cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    });
  });
}

/** Asks 'Are you sure you want to delete?' and resolves true only on Delete. */
export const confirmDelete = () =>
  confirmAction({ message: 'Are you sure you want to delete?', confirmLabel: 'Delete' });
