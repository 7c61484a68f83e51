import { RegisterScreen } from '../../features/doctors/components/register-screen.tsx';

/** Public: outside the signed-in layout; its confirm dialogs load on demand (components/modals-on-demand.tsx). */
export function Component() {
  return <RegisterScreen />;
}
