/**
 * @lingui/react imports `use-sync-external-store/shim`, a polyfill for Reacts before 18; React
 * 19 has the hook itself (vite.config.ts points the import here: less code on the sign-in page).
 */
export { useSyncExternalStore } from 'react';
