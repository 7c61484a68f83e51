import { MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import { LoadingOverlayGlobal } from '../components/loading-overlay.tsx';
import { ModalsOnDemand } from '../components/modals-on-demand.tsx';
import { NotificationsOnDemand } from '../components/notifications-on-demand.tsx';
import { LanguageProvider } from './language.tsx';
import { cssVariablesResolver, theme } from './theme.ts';

/** The query cache is not here but in the routes behind sign-in (with-queries.tsx). */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <LanguageProvider>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
        <NotificationsOnDemand />
        <ModalsOnDemand />
        <LoadingOverlayGlobal />
        {children}
      </MantineProvider>
    </LanguageProvider>
  );
}
