import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { paths } from '../config/paths.ts';
import { useSession } from '../lib/session.ts';

/**
 * Where to go after sign-in: the signed-in address the guard was asked for (kept in the
 * history state, never read from the URL), or the dashboard. Only a path of this portal.
 */
export function useReturnTo(): string {
  const state = useLocation().state as { returnTo?: unknown } | null;
  const returnTo = state?.returnTo;
  const isOwnPath = typeof returnTo === 'string' && returnTo.startsWith('/') && !returnTo.startsWith('//');
  return isOwnPath && returnTo !== paths.login ? returnTo : paths.dashboard;
}

/** The login screen sends a signed-in user on (see useReturnTo), replacing the history entry. */
export function PublicOnly({ children }: { children: ReactNode }) {
  const session = useSession();
  const returnTo = useReturnTo();
  return session ? <Navigate to={returnTo} replace /> : children;
}
