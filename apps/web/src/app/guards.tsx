import { Trans, useLingui } from '@lingui/react/macro';
import { Alert } from '@mantine/core';
import type { PageUrl } from '@portal/contract';
import type { ReactNode } from 'react';
import { Navigate, useLocation, useRouteError } from 'react-router';
import { AppLayout } from './layout/app-layout.tsx';
import { EnrolmentLayout } from './layout/enrolment-layout.tsx';
import { paths } from '../config/paths.ts';
import { useMenu } from '../features/menu/api/get-menu.ts';
import { isDoctor, isDoctorSide, useSession, type Session } from '../lib/session.ts';

/**
 * Signed-in routes: an anonymous or expired session goes to the login screen, which returns
 * to the address asked for (a shared case link) after sign-in; a session the server refuses
 * until its user sets up a second factor gets the enrolment in place of the page.
 */
export function ProtectedLayout() {
  const session = useSession();
  const location = useLocation();
  if (!session) {
    const returnTo = `${location.pathname}${location.search}`;
    return <Navigate to={paths.login} replace state={{ returnTo }} />;
  }
  if (session.mustEnrol) return <EnrolmentLayout />;
  return <AppLayout session={session} />;
}

/**
 * A signed-in page that could not be drawn: the web app takes the server's answers as the
 * contract types them without parsing them again (docs/decisions/speed.md § On the wire), so an
 * answer that is not what a page expects fails here, with a message, not on a blank page.
 */
export function PageError() {
  const { t } = useLingui();
  const error = useRouteError();
  console.error('Could not show the page', error);
  return (
    <Alert color="red" title={t`Something went wrong`} role="alert">
      <Trans>This page could not be shown. Reload the page to try again.</Trans>
    </Alert>
  );
}

function Refused() {
  const { t } = useLingui();
  return (
    <Alert color="red" title={t`No access`} role="alert">
      <Trans>You do not have access to this page.</Trans>
    </Alert>
  );
}

/**
 * A page only for users whose menu has it (doctors and their assistants: only `allowDoctor` pages; the audit log and
 * the lab's settings: only the administrator, whose menu alone lists them). The server refuses
 * the page's calls anyway; this only spares the user a screen of errors.
 */
export function RequirePage({
  page,
  allowDoctor = false,
  children,
}: {
  page: PageUrl | '/audit' | '/settings';
  allowDoctor?: boolean;
  children: ReactNode;
}) {
  const session = useSession() as Session;
  const menu = useMenu(session);
  if (isDoctorSide(session)) return allowDoctor ? children : <Refused />;
  if (menu.isLoading) return null;
  return menu.items.some((item) => item.url === page) ? children : <Refused />;
}

/** A page of doctors alone (their assistants: docs/decisions/assistants.md § Assistants); the server refuses the rest. */
export function RequireDoctor({ children }: { children: ReactNode }) {
  const session = useSession() as Session;
  return isDoctor(session) ? children : <Refused />;
}
