import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { paths } from '../config/paths.ts';
import { useSession } from '../lib/session.ts';

/** The login screen sends a signed-in user straight to the dashboard, replacing the history entry. */
export function PublicOnly({ children }: { children: ReactNode }) {
  const session = useSession();
  return session ? <Navigate to={paths.dashboard} replace /> : children;
}
