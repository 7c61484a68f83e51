import { useLingui } from '@lingui/react/macro';
import { CaseDefaultsSection } from '../../features/cases/components/case-defaults/case-defaults-section.tsx';
import { ProfileScreen } from '../../features/doctors/components/profile-screen.tsx';
import { MailPreferencesSection } from '../../features/mail-preferences/components/mail-preferences-section.tsx';
import { LanguageSection } from '../../features/settings/components/language-section.tsx';
import { TimeZoneSection } from '../../features/settings/components/time-zone-section.tsx';
import { ToothNotationSection } from '../../features/settings/components/tooth-notation-section.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { isDoctor, isDoctorSide, useSession, type Session } from '../../lib/session.ts';

/**
 * The user's own account: a doctor's record and case defaults (staff have none:
 * docs/decisions/case-form.md § Doctor defaults), and everyone's e-mail preferences (§ E-mail
 * preferences). Signed-in devices are on the Security page, beside the second factor.
 */
function ProfilePage() {
  const { t } = useLingui();
  const session = useSession() as Session;
  if (!isDoctor(session)) {
    return (
      <>
        <PageTitle title={t`Account`} />
        <MailPreferencesSection isLab={!isDoctorSide(session)} />
        <LanguageSection />
        <ToothNotationSection />
        <TimeZoneSection />
      </>
    );
  }
  return (
    <>
      <ProfileScreen />
      <CaseDefaultsSection doctorUserId={session.userId} />
      <MailPreferencesSection />
      <LanguageSection />
      <ToothNotationSection />
      <TimeZoneSection />
    </>
  );
}

export function Component() {
  return <ProfilePage />;
}
