import { RequirePage } from '../guards.tsx';
import { DoctorsScreen } from '../../features/doctors/components/doctors-screen.tsx';

export function Component() {
  return (
    <RequirePage page="/doctors">
      <DoctorsScreen />
    </RequirePage>
  );
}
