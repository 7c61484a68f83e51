import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LoadingOverlayGlobal } from '../components/loading-overlay.tsx';
import { cssVariablesResolver, theme } from './theme.ts';

const queryClient = new QueryClient({
  // List and lookup failures are only logged; the user sees nothing (docs/spec.md section 8).
  queryCache: new QueryCache({ onError: (error, query) => console.error('Could not load', query.queryKey, error) }),
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
  },
});

export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <QueryClientProvider client={queryClient}>
        <Notifications position="top-right" />
        <LoadingOverlayGlobal />
        {children}
      </QueryClientProvider>
    </MantineProvider>
  );
}

export { queryClient };
