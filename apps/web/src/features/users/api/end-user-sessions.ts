import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** Signs a user out everywhere: every session of theirs ends (docs/decisions/sign-in-and-sessions.md § Sessions). */
export const endUserSessions = (userId: number) =>
  api.call('DELETE /api/user/:id/sessions', { params: { id: userId } });

export const useEndUserSessions = () => useMutation({ mutationFn: endUserSessions });
