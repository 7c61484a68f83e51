import { QueryCache, QueryClient } from '@tanstack/react-query';

/**
 * The app's one query cache. Only the pages behind the sign-in load it
 * (app/with-queries.tsx), so the sign-in page's JavaScript stays small.
 */
export const queryClient = new QueryClient({
  // List and lookup failures are only logged; the user sees nothing (docs/spec.md section 8).
  queryCache: new QueryCache({ onError: (error, query) => console.error('Could not load', query.queryKey, error) }),
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
  },
});
