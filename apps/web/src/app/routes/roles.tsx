import { RequirePage } from '../guards.tsx';
import { RolesScreen } from '../../features/roles/components/roles-screen.tsx';

export function Component() {
  return (
    <RequirePage page="/roles">
      <RolesScreen />
    </RequirePage>
  );
}
