import { CaseDefaultsSection } from '../../features/cases/components/case-defaults/case-defaults-section.tsx';
import { ProfileScreen } from '../../features/doctors/components/profile-screen.tsx';
import { MailPreferencesSection } from '../../features/mail-preferences/components/mail-preferences-section.tsx';
import { SignedInDevices } from '../../features/sessions/components/signed-in-devices.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { isDoctor, useSession, type Session } from '../../lib/session.ts';

/**
 * The user's own account: a doctor's record and case defaults (staff have none:
 * docs/decisions/case-form.md § Doctor defaults), and everyone's signed-in devices (§ Sessions) and
 * e-mail preferences (§ E-mail preferences).
 */
function ProfilePage() {
  const session = useSession() as Session;
  if (!isDoctor(session)) {
    return (
      <>
        <PageTitle title="Account" />
        <MailPreferencesSection />
        <SignedInDevices />
      </>
    );
  }
  return (
    <>
      <ProfileScreen />
      <CaseDefaultsSection doctorUserId={session.userId} />
      <MailPreferencesSection />
      <SignedInDevices />
    </>
  );
}

export function Component() {
  return <ProfilePage />;
}
