import { useMergedRef } from '@mantine/hooks';
import type { Ref } from 'react';

/**
 * The one hook Mantine's ScrollArea takes from @floating-ui/react, from Mantine's own hooks
 * instead (vite.config.ts points ScrollArea's import here): floating-ui's single module would
 * otherwise come with every table and the navbar, 15 KB gzip of positioning code that only
 * the menus, selects and dialogs use (docs/benchmarks.md § Cold dashboard JavaScript).
 */
export function useMergeRefs<T>(refs: (Ref<T> | undefined)[]) {
  return useMergedRef(...refs);
}
