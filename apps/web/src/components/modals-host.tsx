// The full sheet, as on the signed-in pages: sign-in's part (main.tsx) lacks the notification's and dialog's styles.
import '@mantine/core/styles.css';
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
