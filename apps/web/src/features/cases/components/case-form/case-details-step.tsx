import { useLingui } from '@lingui/react/macro';
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { Doctor } from '@portal/contract';
import { useState } from 'react';
import { isAssistant, useSession, type Session } from '../../../../lib/session.ts';
import { useActiveDoctors, useNamedDoctor } from '../../api/get-doctors.ts';
import { useServedDoctors } from '../../api/get-served-doctors.ts';
import { CaseFormStep } from './case-form-step.tsx';
import { useCaseFormContext } from './case-form-values.ts';

const searchDelayMs = 300;

const doctorOption = (doctor: Doctor) => ({
  value: String(doctor.UserId),
  label: `${doctor.FirstName} ${doctor.LastName} (${doctor.UserName})`,
});

/**
 * Staff submit for a doctor: the server searches the active doctors as they type (a lab has
 * thousands); picking another one clears the clinic, which belongs to the doctor.
 */
function DoctorSelect() {
  const { t } = useLingui();
  const form = useCaseFormContext();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, searchDelayMs);
  // The picked doctor stays an option while the search shows others.
  const [picked, setPicked] = useState<{ value: string; label: string } | null>(null);
  const doctors = useActiveDoctors(debouncedSearch);
  const found = (doctors.data?.rows ?? []).map(doctorOption);
  const input = form.getInputProps('userId');
  // An order or a draft names its doctor before anyone picks: their name is read by id.
  const named = useNamedDoctor(picked ? null : form.values.userId);
  const namedOption = named.data?.rows.map(doctorOption)[0] ?? null;
  const selected = [picked, namedOption].find((option) => option && option.value === form.values.userId) ?? null;
  const data = selected && !found.some((option) => option.value === selected.value) ? [selected, ...found] : found;
  return (
    <Select
      label={t`Doctor`}
      withAsterisk
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server has searched already: every option it answered is shown.
      filter={({ options }) => options}
      placeholder={t`Select the doctor`}
      nothingFoundMessage={doctors.isFetching ? t`Searching...` : t`No active doctor found`}
      data={data}
      {...input}
      onChange={(value, option) => {
        input.onChange(value);
        setPicked(value ? option : null);
        if (form.values.clinicId) form.setFieldValue('clinicId', null);
      }}
    />
  );
}

/**
 * An assistant of several doctors picks one of theirs (a handful: no search); the server
 * checks the pick against their links anyway.
 */
function ServedDoctorSelect() {
  const { t } = useLingui();
  const form = useCaseFormContext();
  const served = useServedDoctors({ enabled: true });
  const input = form.getInputProps('userId');
  return (
    <Select
      label={t`Doctor`}
      withAsterisk
      placeholder={t`Select the doctor`}
      data={(served.data ?? []).map((doctor) => ({ value: String(doctor.userId), label: doctor.name }))}
      {...input}
      onChange={(value) => {
        input.onChange(value);
        if (form.values.clinicId) form.setFieldValue('clinicId', null);
      }}
    />
  );
}

/** The patient and the complaint; staff and an assistant of several doctors first pick the doctor the case is for. */
export function CaseDetailsStep() {
  const form = useCaseFormContext();
  const session = useSession() as Session;
  const select = isAssistant(session) ? <ServedDoctorSelect /> : <DoctorSelect />;
  return <CaseFormStep step={0} before={form.values.picksDoctor && select} />;
}
