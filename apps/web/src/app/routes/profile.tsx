import { RequirePage } from '../guards.tsx';
import { ProfileScreen } from '../../features/doctors/components/profile-screen.tsx';

export function Component() {
  return (
    <RequirePage page="/profile" allowDoctor>
      <ProfileScreen />
    </RequirePage>
  );
}
