import { Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { caseOptions } from '@portal/contract';
import dayjs from 'dayjs';
import { useActiveDoctors } from '../../api/get-doctors.ts';
import { useClinicsByUser } from '../../api/get-clinics-by-user.ts';
import { useCaseFormContext } from './case-form-values.ts';
import { ChoiceSelect } from './choice-inputs.tsx';

/** Only a whole 'YYYY-MM-DD' is a date: half-typed input is not read as some other day. */
function parseIsoDate(text: string): string | null {
  const value = text.trim();
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && dayjs(value).format('YYYY-MM-DD') === value ? value : null;
}

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

function ClinicSelect() {
  const form = useCaseFormContext();
  const userId = form.values.userId ? Number(form.values.userId) : null;
  const clinics = useClinicsByUser(userId);
  return (
    <Select
      label="Clinic"
      withAsterisk
      placeholder={userId === null ? 'Select the doctor first' : 'Select'}
      disabled={userId === null}
      data={(clinics.data ?? []).map((clinic) => ({ value: String(clinic.ClinicId), label: clinic.ClinicName }))}
      {...form.getInputProps('clinicId')}
    />
  );
}

export function CaseDetailsStep() {
  const form = useCaseFormContext();
  return (
    <Stack>
      {form.values.isStaff && <DoctorSelect />}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="First Name" withAsterisk autoComplete="off" {...form.getInputProps('firstname')} />
        <TextInput label="Last Name" withAsterisk autoComplete="off" {...form.getInputProps('lastname')} />
        <DateInput
          label="Date Of Birth"
          withAsterisk
          placeholder="YYYY-MM-DD"
          valueFormat="YYYY-MM-DD"
          dateParser={parseIsoDate}
          maxDate={dayjs().format('YYYY-MM-DD')}
          defaultLevel="decade"
          clearable
          clearButtonProps={{ 'aria-label': 'Clear Date Of Birth' }}
          {...form.getInputProps('dob')}
        />
        <ChoiceSelect field="gender" label="Gender" options={caseOptions.gender} />
        <ClinicSelect />
        <ChoiceSelect field="arches" label="Arches To Treat" options={caseOptions.arches} withAsterisk />
        <ChoiceSelect field="nature" label="Nature of Patient" options={caseOptions.nature} withAsterisk />
        <ChoiceSelect field="shipment" label="Retainer Shipment" options={caseOptions.shipment} />
        <ChoiceSelect field="passiveAligner" label="Passive Aligner" options={caseOptions.passiveAligner} />
        <ChoiceSelect
          field="alignerShipment"
          label="Aligner Shipment"
          options={caseOptions.alignerShipment}
          withAsterisk
        />
      </SimpleGrid>
      <Textarea label="Chief Complaint" withAsterisk rows={5} {...form.getInputProps('complaint')} />
    </Stack>
  );
}
