import { useSyncExternalStore } from 'react';

const subscribe = (onChange: () => void) => {
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
};
const isVisible = () => document.visibilityState === 'visible';

/**
 * Whether the page is on screen (not a background tab, not a minimised window): what is only
 * seen while it is, such as a case's messages being read, waits for it (issue 41).
 */
export function usePageVisible(): boolean {
  return useSyncExternalStore(subscribe, isVisible);
}
