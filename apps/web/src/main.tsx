// First: before the contract's schemas are made (see the file).
import './lib/zod-jitless.ts';
// Only the styles the sign-in page draws, in the order of Mantine's full stylesheet (baseline
// and variables first); the full sheet comes with every other page (app/with-queries.tsx)
// and with the first notification or dialog (docs/decisions/speed.md § On the wire).
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/VisuallyHidden.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/ActionIcon.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Center.css';
import '@mantine/core/styles/LoadingOverlay.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/Progress.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Title.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from './app/provider.tsx';
import { AppRouter } from './app/router.tsx';
import { initialLocale, showLocale } from './lib/i18n.ts';

// A transition: React renders the first page in slices that yield to the browser, not in
// one long task (Lighthouse: total blocking time); the light shell stays until it is done.
// The language's messages come first: nothing is drawn in the wrong language. Should its
// catalog not arrive (the network), the page is drawn in English, which needs none.
void showLocale(initialLocale())
  .catch(() => showLocale('en'))
  .then(() =>
    startTransition(() =>
      createRoot(document.getElementById('root')!).render(
        <StrictMode>
          <AppProvider>
            <AppRouter />
          </AppProvider>
        </StrictMode>,
      ),
    ),
  );
