import { Trans } from '@lingui/react/macro';
import { Button, Group, Paper, SimpleGrid, Text, Title } from '@mantine/core';
import {
  caseFieldList,
  doctorPreferenceKeys,
  doctorPreferences,
  type DoctorPreferenceName,
  type DoctorPreferences,
} from '@portal/contract';
import { localizedResolver } from '../../../../lib/localized-resolver.ts';
import { notifyOutcome } from '../../../../lib/notify.ts';
import { useSaveDoctorPreferences } from '../../api/doctor-preferences.ts';
import { CaseFieldInput } from '../case-form/case-field-input.tsx';
import {
  CaseFormProvider,
  initialCaseFormValues,
  useCaseForm,
  type CaseFormValues,
} from '../case-form/case-form-values.ts';

/** The preference fields of the case field table, in the contract's order; none is required here (blank: no default). */
const preferenceFields = doctorPreferenceKeys.map((key) => ({
  ...caseFieldList.find((field) => field.key === key)!,
  isRequired: false,
}));

const preferencesOf = (values: CaseFormValues): DoctorPreferences =>
  Object.fromEntries(
    preferenceFields.map(({ sent }) => [sent, values[sent as DoctorPreferenceName & keyof CaseFormValues] ?? '']),
  ) as DoctorPreferences;

const validatePreferences = localizedResolver(doctorPreferences);

/**
 * The doctor's case defaults on the profile page (docs/decisions/case-form.md § Doctor defaults), with
 * the case form's own inputs: a new case starts from what is saved here.
 */
export function CaseDefaultsForm({ doctorUserId, saved }: { doctorUserId: number; saved: DoctorPreferences }) {
  const save = useSaveDoctorPreferences();
  const form = useCaseForm({
    mode: 'controlled',
    initialValues: initialCaseFormValues(doctorUserId, saved),
    validate: (values) => validatePreferences(preferencesOf(values)),
    validateInputOnChange: true,
  });

  const submit = form.onSubmit(async (values) => {
    if (await notifyOutcome(save.mutateAsync(preferencesOf(values)), form.setErrors)) form.resetDirty();
  });

  return (
    <Paper component="section" aria-labelledby="case-defaults-title" withBorder p={{ base: 'sm', sm: 'lg' }} mt="xl">
      <Title order={2} size="h3" id="case-defaults-title">
        <Trans>Case defaults</Trans>
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        <Trans>A new case starts with these choices; you can still change them on each case.</Trans>
      </Text>
      <CaseFormProvider form={form}>
        <form onSubmit={submit} noValidate>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg" verticalSpacing="md">
            {preferenceFields.map((field) => (
              <CaseFieldInput key={field.key} field={field as (typeof caseFieldList)[number]} />
            ))}
          </SimpleGrid>
          <Group justify="flex-end" mt="lg">
            <Button type="submit" loading={save.isPending}>
              <Trans>Save case defaults</Trans>
            </Button>
          </Group>
        </form>
      </CaseFormProvider>
    </Paper>
  );
}
