import { ModalsProvider } from '@mantine/modals';
import { useEffect } from 'react';

/**
 * Mantine's modals manager with no children: `modals.open*` reach it through window events.
 * Its listeners are attached in its own effects, which run before this one.
 */
export default function ModalsHost({ onReady }: { onReady: () => void }) {
  useEffect(onReady, [onReady]);
  return <ModalsProvider />;
}
