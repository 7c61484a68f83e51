import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { whenModalsReady } from './modals-on-demand.tsx';

/** Asks 'Are you sure you want to delete?' and resolves true only on Delete. */
export async function confirmDelete(): Promise<boolean> {
  await whenModalsReady();
  return new Promise((resolve) => {
    modals.openConfirmModal({
      title: 'Please confirm',
      children: <Text size="sm">Are you sure you want to delete?</Text>,
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    });
  });
}
