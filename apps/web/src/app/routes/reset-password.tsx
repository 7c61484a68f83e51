import { ResetPasswordScreen } from '../../features/password-reset/components/reset-password-screen.tsx';

export function Component() {
  return <ResetPasswordScreen />;
}
