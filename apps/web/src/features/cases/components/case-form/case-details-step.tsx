import { Select } from '@mantine/core';
import { useActiveDoctors } from '../../api/get-doctors.ts';
import { CaseFormStep } from './case-form-step.tsx';
import { useCaseFormContext } from './case-form-values.ts';

/** Staff submit for a doctor: picking another one clears the clinic, which belongs to the doctor. */
function DoctorSelect() {
  const form = useCaseFormContext();
  const doctors = useActiveDoctors({ enabled: true });
  const input = form.getInputProps('userId');
  return (
    <Select
      label="Doctor"
      withAsterisk
      searchable
      placeholder="Select the doctor"
      nothingFoundMessage="No active doctor found"
      data={(doctors.data ?? []).map((doctor) => ({
        value: String(doctor.UserId),
        label: `${doctor.FirstName} ${doctor.LastName} (${doctor.UserName})`,
      }))}
      {...input}
      onChange={(value) => {
        input.onChange(value);
        if (form.values.clinicId) form.setFieldValue('clinicId', null);
      }}
    />
  );
}

/** The patient and the complaint; staff first pick the doctor the case is for. */
export function CaseDetailsStep() {
  const form = useCaseFormContext();
  return <CaseFormStep step={0} before={form.values.isStaff && <DoctorSelect />} />;
}
