import { useSyncExternalStore } from 'react';

/**
 * The time zone the portal shows times in (docs/decisions/settings.md § Time zones): the user's own
 * once the server has said it, the browser's until then.
 */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

let current = browserTimeZone();
const listeners = new Set<() => void>();

export const displayTimeZone = () => current;

export function setDisplayTimeZone(timeZone: string) {
  if (timeZone === current) return;
  current = timeZone;
  listeners.forEach((listener) => listener());
}

/** The zone of the moment; a component that shows times under it renders again when it changes. */
export const useDisplayTimeZone = () =>
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
  );

let options: string[] | undefined;
/** Every zone the browser knows ('UTC' first), for a time zone picker. */
export function timeZoneOptions(): string[] {
  options ??= ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];
  return options;
}
