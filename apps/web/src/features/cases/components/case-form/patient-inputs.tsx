import { useLingui } from '@lingui/react/macro';
import { Select } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import type { CaseFieldEntry } from '@portal/contract';
import dayjs from 'dayjs';
import { serverText } from '../../../../lib/server-text.ts';
import { useClinicsByUser } from '../../api/get-clinics-by-user.ts';
import { useCaseFormContext } from './case-form-values.ts';

type FieldOfKind<Kind extends CaseFieldEntry['kind']> = Extract<CaseFieldEntry, { kind: Kind }>;

/** Only a whole 'YYYY-MM-DD' is a date: half-typed input is not read as some other day. */
function parseIsoDate(text: string): string | null {
  const value = text.trim();
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && dayjs(value).format('YYYY-MM-DD') === value ? value : null;
}

/** A date in the past, typed as YYYY-MM-DD or picked from a calendar that opens on decades. */
export function PastDateInput({ field }: { field: FieldOfKind<'date'> }) {
  const { t } = useLingui();
  const form = useCaseFormContext();
  const label = serverText(field.label);
  return (
    <DateInput
      label={label}
      withAsterisk={field.isRequired}
      placeholder={t`YYYY-MM-DD`}
      valueFormat="YYYY-MM-DD"
      dateParser={parseIsoDate}
      maxDate={dayjs().format('YYYY-MM-DD')}
      defaultLevel="decade"
      clearable
      clearButtonProps={{ 'aria-label': t`Clear ${label}` }}
      {...form.getInputProps(field.sent)}
    />
  );
}

/** One of the chosen doctor's clinics. */
export function ClinicSelect({ field }: { field: FieldOfKind<'clinic'> }) {
  const { t } = useLingui();
  const form = useCaseFormContext();
  const userId = form.values.userId ? Number(form.values.userId) : null;
  const clinics = useClinicsByUser(userId);
  return (
    <Select
      label={serverText(field.label)}
      withAsterisk={field.isRequired}
      placeholder={userId === null ? t`Select the doctor first` : t`Select`}
      disabled={userId === null}
      data={(clinics.data ?? []).map((clinic) => ({ value: String(clinic.ClinicId), label: clinic.ClinicName }))}
      {...form.getInputProps(field.sent)}
    />
  );
}
