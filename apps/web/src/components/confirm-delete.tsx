import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { deleteConfirmation } from '@portal/contract';
import { whenModalsReady } from './modals-on-demand.tsx';

/** Asks 'Are you sure you want to delete?' and resolves true only on Delete. */
export async function confirmDelete(): Promise<boolean> {
  await whenModalsReady();
  return new Promise((resolve) => {
    modals.openConfirmModal({
      title: 'Please confirm',
      children: <Text size="sm">{deleteConfirmation}</Text>,
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    });
  });
}
