import { Trans } from '@lingui/react/macro';
import { Alert } from '@mantine/core';
import type { Doctor } from '@portal/contract';
import { useClinics } from '../api/get-clinics.ts';
import { DoctorForm } from './doctor-form.tsx';
import type { DoctorFormMode } from './doctor-form-values.ts';

/** The doctor form for a stored doctor, shown once their clinics are loaded. */
export function EditDoctorForm({
  mode,
  doctor,
  onSaved,
  onCancel,
}: {
  mode: Exclude<DoctorFormMode, 'register'>;
  doctor: Doctor;
  onSaved: (message: string, change: { hasNewPassword: boolean }) => void | Promise<void>;
  onCancel: () => void;
}) {
  const clinics = useClinics(doctor.DoctorId);
  if (clinics.isError) {
    return (
      <Alert color="red" role="alert">
        <Trans>The clinics of this doctor could not be loaded.</Trans>
      </Alert>
    );
  }
  if (!clinics.data) return null;
  // Keyed by the load time: after a save the form starts again from what the server holds.
  return (
    <DoctorForm
      key={`${doctor.DoctorId}-${clinics.dataUpdatedAt}`}
      mode={mode}
      doctor={doctor}
      clinics={clinics.data}
      onSaved={onSaved}
      onCancel={onCancel}
    />
  );
}
