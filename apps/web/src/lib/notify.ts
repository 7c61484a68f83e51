import { notifications } from '@mantine/notifications';
import { ApiError } from './api-client.ts';

/** Toast lifetimes of docs/spec.md section 9. */
export const toastMs = { login: 5000, registration: 3000, profile: 3000, default: 3000 } as const;

/** Mantine's close button has no name of its own (axe: button-name). */
const closeButtonProps = { 'aria-label': 'Close notification' };

export function notifySuccess(message: string, autoClose: number = toastMs.default) {
  notifications.show({ color: 'green', message, autoClose, withCloseButton: true, closeButtonProps });
}

export function notifyError(message: string, autoClose: number = toastMs.default) {
  notifications.show({ color: 'red', message, autoClose, withCloseButton: true, closeButtonProps });
}

/** The server's message when it gave one, else the screen's fallback text. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}

/** Texts of docs/spec.md section 8 for when the server gives no message. */
export const fallbackMessages = {
  saved: 'Saved successfully',
  updated: 'Updated successfully',
  deleted: 'Deleted successfully',
  saveFailed: 'Something went wrong...',
  deleteFailed: 'Failed to delete',
} as const;

/** A refused save: the server's per-field messages go under their fields, its message in a toast. */
export function notifySaveError(error: unknown, setFieldErrors?: (errors: Record<string, string>) => void) {
  if (setFieldErrors && error instanceof ApiError && Object.keys(error.fieldErrors).length > 0) {
    setFieldErrors(error.fieldErrors);
  }
  notifyError(errorMessage(error, fallbackMessages.saveFailed));
}

/**
 * Toasts how a save ended: the server's message when it saved, else its reason, with its
 * per-field messages under their fields. True when it saved, for what follows a save.
 */
export async function notifyOutcome(
  save: Promise<{ message: string }>,
  setFieldErrors?: (errors: Record<string, string>) => void,
): Promise<boolean> {
  try {
    notifySuccess((await save).message);
    return true;
  } catch (error) {
    notifySaveError(error, setFieldErrors);
    return false;
  }
}

/** A refused delete: 'Failed to delete', with the server's reason when it gave one. */
export function notifyDeleteError(error: unknown) {
  const reason = errorMessage(error, '');
  notifications.show({
    color: 'red',
    title: reason ? fallbackMessages.deleteFailed : undefined,
    message: reason || fallbackMessages.deleteFailed,
    autoClose: toastMs.default,
    withCloseButton: true,
  });
}
