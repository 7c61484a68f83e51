import { RequirePage } from '../guards.tsx';
import { CaseDefaultsSection } from '../../features/cases/components/case-defaults/case-defaults-section.tsx';
import { ProfileScreen } from '../../features/doctors/components/profile-screen.tsx';
import { isDoctor, useSession, type Session } from '../../lib/session.ts';

/** The doctor's own record, then their case defaults (staff have none: docs/decisions.md § Doctor defaults). */
function ProfilePage() {
  const session = useSession() as Session;
  return (
    <>
      <ProfileScreen />
      {isDoctor(session) && <CaseDefaultsSection doctorUserId={session.userId} />}
    </>
  );
}

export function Component() {
  return (
    <RequirePage page="/profile" allowDoctor>
      <ProfilePage />
    </RequirePage>
  );
}
