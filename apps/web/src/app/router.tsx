import { Trans } from '@lingui/react/macro';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { paths } from '../config/paths.ts';
import { PublicOnly } from './public-only.tsx';
import { LoginRoute } from './routes/login.tsx';

/**
 * What a full page load shows while its screen's code arrives: index.html's light shell, drawn
 * the same, so it stays in place rather than giving way to a blank page (react-router renders
 * a `HydrateFallback` until the lazy routes are loaded, and warns without one).
 */
function LightShell() {
  return (
    <p
      style={{
        margin: 0,
        padding: '30vh 0 0',
        textAlign: 'center',
        font: '600 1.5rem system-ui, sans-serif',
        color: '#087f5b',
      }}
    >
      <Trans>Aligner Portal</Trans>
    </p>
  );
}

/** Screens load on demand, so the login page stays small (bench: bundle budget). */
const router = createBrowserRouter([
  {
    path: paths.login,
    element: (
      <PublicOnly>
        <LoginRoute />
      </PublicOnly>
    ),
  },
  {
    // The query cache comes with the first page that reads the API (sign-in reads nothing).
    lazy: () => import('./with-queries.tsx'),
    HydrateFallback: LightShell,
    children: [
      { path: paths.register, lazy: () => import('./routes/register.tsx') },
      { path: paths.resetPassword, lazy: () => import('./routes/reset-password.tsx') },
      { path: paths.terms, lazy: () => import('./routes/terms.tsx') },
      { path: paths.sharedPlan, lazy: () => import('./routes/shared-plan.tsx') },
      {
        // The signed-in shell is its own chunk: the login page loads without it.
        lazy: async () => {
          const { ProtectedLayout, PageError } = await import('./guards.tsx');
          return { Component: ProtectedLayout, ErrorBoundary: PageError };
        },
        children: [
          {
            // A page that fails to render shows its error inside the shell (menu and sign-out stay).
            lazy: async () => ({ ErrorBoundary: (await import('./guards.tsx')).PageError }),
            children: [
              { path: paths.dashboard, lazy: () => import('./routes/dashboard.tsx') },
              { path: paths.inbox, lazy: () => import('./routes/inbox.tsx') },
              { path: paths.roles, lazy: () => import('./routes/roles.tsx') },
              { path: paths.rolePermissions, lazy: () => import('./routes/role-permissions.tsx') },
              { path: paths.users, lazy: () => import('./routes/users.tsx') },
              { path: paths.doctors, lazy: () => import('./routes/doctors.tsx') },
              { path: paths.cases, lazy: () => import('./routes/cases.tsx') },
              { path: paths.caseDetail, lazy: () => import('./routes/case.tsx') },
              { path: paths.profile, lazy: () => import('./routes/profile.tsx') },
              { path: paths.assistants, lazy: () => import('./routes/assistants.tsx') },
              { path: paths.security, lazy: () => import('./routes/security.tsx') },
              { path: paths.audit, lazy: () => import('./routes/audit.tsx') },
              { path: paths.settings, lazy: () => import('./routes/settings.tsx') },
            ],
          },
        ],
      },
      { path: '*', lazy: () => import('./routes/not-found.tsx') },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
