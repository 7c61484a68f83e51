import { ModalsProvider } from '@mantine/modals';
import { RegisterScreen } from '../../features/doctors/components/register-screen.tsx';

/** Public: outside the signed-in layout, so it brings the confirm dialogs' provider itself. */
export function Component() {
  return (
    <ModalsProvider>
      <RegisterScreen />
    </ModalsProvider>
  );
}
