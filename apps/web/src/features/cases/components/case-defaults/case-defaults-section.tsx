import { Trans } from '@lingui/react/macro';
import { Alert } from '@mantine/core';
import { useDoctorPreferences } from '../../api/doctor-preferences.ts';
import { CaseDefaultsForm } from './case-defaults-form.tsx';

/** The signed-in doctor's case defaults, once loaded. */
export function CaseDefaultsSection({ doctorUserId }: { doctorUserId: number }) {
  const saved = useDoctorPreferences({ enabled: true });
  if (saved.isError) {
    return (
      <Alert color="red" role="alert" mt="xl">
        <Trans>Your case defaults could not be loaded.</Trans>
      </Alert>
    );
  }
  return saved.data ? <CaseDefaultsForm doctorUserId={doctorUserId} saved={saved.data} /> : null;
}
