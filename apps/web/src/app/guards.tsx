import { Alert } from '@mantine/core';
import type { PageUrl } from '@portal/contract';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { AppLayout } from './layout/app-layout.tsx';
import { paths } from '../config/paths.ts';
import { useMenu } from '../features/menu/api/get-menu.ts';
import { isDoctor, useSession, type Session } from '../lib/session.ts';

/**
 * Signed-in routes: an anonymous or expired session goes to the login screen, which returns
 * to the address asked for (a shared case link) after sign-in.
 */
export function ProtectedLayout() {
  const session = useSession();
  const location = useLocation();
  if (!session) {
    const returnTo = `${location.pathname}${location.search}`;
    return <Navigate to={paths.login} replace state={{ returnTo }} />;
  }
  return <AppLayout session={session} />;
}

function Refused() {
  return (
    <Alert color="red" title="No access" role="alert">
      You do not have access to this page.
    </Alert>
  );
}

/**
 * A page only for users whose menu has it (doctors: only `doctorPage`s; the audit log: only
 * the administrator, whose menu alone lists it). The server refuses
 * the page's calls anyway; this only spares the user a screen of errors.
 */
export function RequirePage({
  page,
  allowDoctor = false,
  children,
}: {
  page: PageUrl | '/profile' | '/audit';
  allowDoctor?: boolean;
  children: ReactNode;
}) {
  const session = useSession() as Session;
  const menu = useMenu(session);
  if (isDoctor(session)) return allowDoctor ? children : <Refused />;
  if (page === '/profile') return <Refused />;
  if (menu.isLoading) return null;
  return menu.items.some((item) => item.url === page) ? children : <Refused />;
}
