import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { sessionStore } from '../../../lib/session.ts';

/** Revokes the token on the server (best effort), then forgets the session here. */
export function useLogout() {
  const queryClient = useQueryClient();
  return async () => {
    try {
      if (sessionStore.getValid()) await api.call('POST /api/auth/logout');
    } catch {
      // Signing out locally is what matters; the token expires anyway.
    } finally {
      sessionStore.clear();
      queryClient.clear();
    }
  };
}
