import { lazy, Suspense, useSyncExternalStore } from 'react';

const ModalsHost = lazy(() => import('./modals-host.tsx'));

let isWanted = false;
const listeners = new Set<() => void>();
let markReady: () => void = () => undefined;
const ready = new Promise<void>((resolve) => {
  markReady = resolve;
});

/**
 * Mounts Mantine's modals manager, loading it (and Modal, its focus trap and scroll lock)
 * the first time a dialog is asked for; resolves once it listens for `modals.open*` calls.
 */
export function whenModalsReady(): Promise<void> {
  if (!isWanted) {
    isWanted = true;
    for (const listener of listeners) listener();
  }
  return ready;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Where the manager mounts, once wanted; no page loads it before its first dialog. */
export function ModalsOnDemand() {
  const isShown = useSyncExternalStore(subscribe, () => isWanted);
  return isShown ? (
    <Suspense fallback={null}>
      <ModalsHost onReady={markReady} />
    </Suspense>
  ) : null;
}
