// Mantine's full stylesheet: every page but sign-in (main.tsx loads only sign-in's part of it).
import '@mantine/core/styles.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { queryClient } from '../lib/query-client.ts';

/** Every route but sign-in: the query cache, loaded with the first page that reads the API. */
export function Component() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
