import { CaseDefaultsSection } from '../../features/cases/components/case-defaults/case-defaults-section.tsx';
import { ProfileScreen } from '../../features/doctors/components/profile-screen.tsx';
import { SignedInDevices } from '../../features/sessions/components/signed-in-devices.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { isDoctor, useSession, type Session } from '../../lib/session.ts';

/**
 * The user's own account: a doctor's record and case defaults (staff have none:
 * docs/decisions.md § Doctor defaults), and everyone's signed-in devices (§ Sessions).
 */
function ProfilePage() {
  const session = useSession() as Session;
  if (!isDoctor(session)) {
    return (
      <>
        <PageTitle title="Account" />
        <SignedInDevices />
      </>
    );
  }
  return (
    <>
      <ProfileScreen />
      <CaseDefaultsSection doctorUserId={session.userId} />
      <SignedInDevices />
    </>
  );
}

export function Component() {
  return <ProfilePage />;
}
