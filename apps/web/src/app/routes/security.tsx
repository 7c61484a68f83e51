import { SecurityScreen } from '../../features/auth/components/security-screen.tsx';

/** Every signed-in user's own second factors. */
export function Component() {
  return <SecurityScreen />;
}
