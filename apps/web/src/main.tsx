// First: before the contract's schemas are made (see the file).
import './lib/zod-jitless.ts';
import '@mantine/core/styles.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from './app/provider.tsx';
import { AppRouter } from './app/router.tsx';

// A transition: React renders the first page in slices that yield to the browser, not in
// one long task (Lighthouse: total blocking time); the light shell stays until it is done.
startTransition(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProvider>
        <AppRouter />
      </AppProvider>
    </StrictMode>,
  ),
);
