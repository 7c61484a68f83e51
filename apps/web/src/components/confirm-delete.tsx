import { t } from '@lingui/core/macro';
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { whenModalsReady } from './modals-on-demand.tsx';

/** Asks `message`, with `subject` (what it acts on) under it, and resolves true only on the red `confirmLabel` button. */
export async function confirmAction({
  message,
  subject,
  confirmLabel,
}: {
  message: string;
  subject?: string;
  confirmLabel: string;
}) {
  await whenModalsReady();
  return new Promise<boolean>((resolve) => {
    modals.openConfirmModal({
      title: t`Please confirm`,
      children: (
        <>
          <Text size="sm">{message}</Text>
          {subject && (
            <Text size="sm" fw={600} mt="xs">
              {subject}
            </Text>
          )}
        </>
      ),
      labels: { confirm: confirmLabel, cancel: t`Cancel` },
      confirmProps: { color: 'red' },
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    });
  });
}

/**
 * Asks the spec's 'Are you sure you want to delete?', naming what would go under it
 * ("Role 'Lab technician'"): a dialog that covers the list no longer shows which row was
 * clicked. Resolves true only on Delete.
 */
export const confirmDelete = (subject: string) =>
  confirmAction({ message: t`Are you sure you want to delete?`, subject, confirmLabel: t`Delete` });
