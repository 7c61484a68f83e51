import { RequirePage } from '../guards.tsx';
import { SettingsScreen } from '../../features/settings/components/settings-screen.tsx';

export function Component() {
  return (
    <RequirePage page="/settings">
      <SettingsScreen />
    </RequirePage>
  );
}
