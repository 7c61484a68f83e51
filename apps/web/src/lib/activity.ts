import { useSyncExternalStore } from 'react';

/**
 * What the global overlay shows: 'Loading...' while any API call runs, or '{n}% uploaded'
 * during an upload. It is hidden 500 ms after the last answer (docs/spec.md section 9).
 */
interface Activity {
  pending: number;
  uploadPercent: number | null;
  isVisible: boolean;
}

const hideDelayMs = 500;

let state: Activity = { pending: 0, uploadPercent: null, isVisible: false };
const listeners = new Set<() => void>();
let hideTimer: ReturnType<typeof setTimeout> | undefined;

function set(next: Partial<Activity>) {
  state = { ...state, ...next };
  listeners.forEach((listener) => listener());
}

export const activity = {
  begin() {
    clearTimeout(hideTimer);
    set({ pending: state.pending + 1, isVisible: true });
  },
  end() {
    const pending = Math.max(0, state.pending - 1);
    set({ pending });
    if (pending === 0) {
      hideTimer = setTimeout(() => set({ isVisible: false, uploadPercent: null }), hideDelayMs);
    }
  },
  progress(percent: number) {
    set({ uploadPercent: Math.min(100, Math.max(0, Math.round(percent))) });
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get: () => state,
};

export const useActivity = () => useSyncExternalStore(activity.subscribe, activity.get);
