import { t } from '@lingui/core/macro';
import { notifications } from '@mantine/notifications';
import { ApiError } from './api-client.ts';
import { serverFieldErrors, serverRefusalText, serverText } from './server-text.ts';

/** Toast lifetimes of docs/spec.md section 9. */
export const toastMs = { login: 5000, registration: 3000, profile: 3000, default: 3000 } as const;

/** Mantine's close button has no name of its own (axe: button-name); named in the language shown. */
const closeButtonProps = () => ({ 'aria-label': t`Close notification` });

export function notifySuccess(message: string, autoClose: number = toastMs.default) {
  notifications.show({
    color: 'green',
    message,
    autoClose,
    withCloseButton: true,
    closeButtonProps: closeButtonProps(),
  });
}

export function notifyError(message: string, autoClose: number = toastMs.default) {
  notifications.show({ color: 'red', message, autoClose, withCloseButton: true, closeButtonProps: closeButtonProps() });
}

/**
 * The server's message when it gave one, in the language shown (a refusal with a code through
 * its template, lib/server-text.ts), else the screen's fallback text.
 */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message
    ? serverRefusalText(error.message, error.code, error.params)
    : fallback;
}

/** Texts of docs/spec.md section 8 for when the server gives no message, in the language shown as each is read. */
export const fallbackMessages = {
  get saved() {
    return t`Saved successfully`;
  },
  get updated() {
    return t`Updated successfully`;
  },
  get deleted() {
    return t`Deleted successfully`;
  },
  get saveFailed() {
    return t`Something went wrong...`;
  },
  get deleteFailed() {
    return t`Failed to delete`;
  },
};

/** A refused save: the server's per-field messages go under their fields, its message in a toast. */
export function notifySaveError(error: unknown, setFieldErrors?: (errors: Record<string, string>) => void) {
  if (setFieldErrors && error instanceof ApiError && Object.keys(error.fieldErrors).length > 0) {
    setFieldErrors(serverFieldErrors(error));
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
    notifySuccess(serverText((await save).message));
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
    closeButtonProps: closeButtonProps(),
  });
}
