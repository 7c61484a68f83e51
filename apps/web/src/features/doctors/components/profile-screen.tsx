import { Trans, useLingui } from '@lingui/react/macro';
import { Alert } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { PageTitle } from '../../../components/page-title.tsx';
import { paths } from '../../../config/paths.ts';
import { fallbackMessages, notifySuccess, toastMs } from '../../../lib/notify.ts';
import { sessionStore, useSession, type Session } from '../../../lib/session.ts';
import { doctorByUserIdQueryOptions, useDoctorByUserId } from '../api/get-doctor-by-user-id.ts';
import { EditDoctorForm } from './edit-doctor-form.tsx';

/** The signed-in doctor's own record in the doctor form. */
export function ProfileScreen() {
  const { t } = useLingui();
  const session = useSession() as Session;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const doctor = useDoctorByUserId(session.userId);

  // The avatar in the top bar follows a new or removed picture. A new password ends every
  // session of the account, this one included, so the doctor signs in again with it.
  const saved = async (message: string, change: { hasNewPassword: boolean }) => {
    if (change.hasNewPassword) {
      notifySuccess(t`Password changed. Please sign in with your new password.`, toastMs.profile);
      sessionStore.clear();
      await navigate(paths.login, { replace: true });
      return;
    }
    notifySuccess(message || fallbackMessages.updated, toastMs.profile);
    const fresh = await queryClient.fetchQuery(doctorByUserIdQueryOptions(session.userId));
    if (fresh && fresh.ProfilePic !== session.profilePic) sessionStore.setProfilePic(fresh.ProfilePic);
  };

  return (
    <>
      <PageTitle title={t`Profile`} />
      {doctor.isError && (
        <Alert color="red" role="alert">
          <Trans>Your profile could not be loaded.</Trans>
        </Alert>
      )}
      {doctor.data && (
        <EditDoctorForm
          key={doctor.dataUpdatedAt}
          mode="profile"
          doctor={doctor.data}
          onSaved={saved}
          onCancel={() => void navigate(paths.dashboard)}
        />
      )}
    </>
  );
}
